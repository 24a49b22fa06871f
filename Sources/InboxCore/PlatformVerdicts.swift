/// The hosts a message is resolved for when the question is "what does each device get": one per
/// platform of a send request's `platforms`, each with `attributes.platform` set to that platform's
/// name (so a wallet card renders on iOS and falls back to classic on Android).
///
/// A message that names no platforms is resolved once, under the attributes as given (today's
/// behaviour). `narrowedTo` (a name or a code, any case: `ios`, `1`) keeps the platforms it names;
/// when the message names platforms but not that one, it is resolved once for `narrowedTo`, as the
/// host asked.
public enum PlatformVerdicts {
  /// Each host to resolve for: the platform (nil: none named) and the attributes to resolve under.
  public static func hosts(
    for message: InboxMessage, attributes: Attributes, narrowedTo: String? = nil
  ) -> [(platform: TargetPlatform?, attributes: Attributes)] {
    guard let platforms = message.platforms, !platforms.isEmpty else { return [(nil, attributes)] }
    var kept = platforms
    if let narrowedTo {
      let wanted = narrowedTo.trimmingWhitespace().lowercased()
      kept = platforms.filter { $0.name == wanted || String($0.code) == wanted }
      if kept.isEmpty { return [(nil, attributes)] }
    }
    return kept.map { platform in
      var host = attributes
      host.platform = platform.name
      return (platform, host)
    }
  }
}
