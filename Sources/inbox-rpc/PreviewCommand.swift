import InboxApp
import InboxCore
import InboxPreview
import InboxStore
import JSON
import Posix

/// `inbox-rpc preview`: the feed of a store, or the cards of payload files, drawn as InboxKit lays
/// them out in one self-contained HTML page.
enum PreviewCommand {
  static let help = """
    USAGE: inbox-rpc preview [--store PATH | PAYLOAD.json...] [--platform NAME] [--wallet-passes]
                             [--locale TAG] [--every-locale] [--theme light|dark] [--now SECONDS]
                             [--no-swipe-to-delete] [--no-pull-to-refresh] [-o FILE.html]

    Writes one HTML page (CSS inline, no script) showing the cards in feed order at phone width,
    each as InboxKit lays it out, with its degradation, warnings and dates beside it. Without
    PAYLOAD files it shows the visible messages of the store (--store, else the server's default
    store), resolved under the attributes saved with it; a PAYLOAD file holds what `lint` reads.

      --store PATH      The store to show (it must exist; no message in it changes).
      --platform NAME   The host platform (wallet cards need ios or maccatalyst); a request's
                        platforms give a card each, and this keeps the one it names.
      --locale TAG      The user's language (BCP 47, de-AT): titles, bodies and labels in it.
      --every-locale    A card per language a payload's title or body is written in.
      --wallet-passes   The host can add wallet passes.
      --theme NAME      light (default) or dark.
      --no-swipe-to-delete, --no-pull-to-refresh
                        Turn the attribute off: no delete action on the cards, no refresh
                        control (a store's saved attributes say so too).
      --now SECONDS     The time: send time of payloads, and what has expired (default: now).
      -o FILE.html      Write the page there instead of standard output.

    EXIT CODES: 0 written; 2 bad command line; 3 an input cannot be read or the page not written.
    """

  /// Runs the command; `finish` gets its exit status, at once, or once the store has opened (with no
  /// thread waiting for it meanwhile).
  static func run(_ arguments: [String], environment: Environment, finish: @escaping @Sendable (Int32) -> Void) {
    var store: String?
    var output: String?
    var theme = PreviewPage.Theme.light
    var switchedOff: JSONObject = [:]
    let parsed = PayloadFlags.commandLine(arguments, command: "preview", help: help) { argument, remaining in
      if let attribute = switches[argument] {
        switchedOff[attribute] = false
        return .taken
      }
      guard ["--store", "-o", "--theme"].contains(argument) else { return .notMine }
      guard let value = remaining.popFirst() else { return .failed("\(argument) needs a value") }
      switch argument {
      case "--store": store = value
      case "-o": output = value
      default:
        guard let chosen = PreviewPage.Theme(rawValue: value) else { return .failed("--theme is light or dark") }
        theme = chosen
      }
      return .taken
    }
    let (flags, files): (PayloadFlags, [String])
    switch parsed {
    case .exit(let code): return finish(code)
    case .run(let parsedFlags, let parsedFiles): (flags, files) = (parsedFlags, parsedFiles)
    }
    if store != nil, !files.isEmpty { return finish(usage("give --store or PAYLOAD files, not both")) }
    let (target, chosenTheme) = (output, theme)
    var patchObject = flags.patch.objectValue ?? [:]
    for member in switchedOff { patchObject[member.key] = member.value }
    let patch = JSONValue.object(patchObject)
    let page = { @Sendable (entries: [PreviewEntry], source: String, attributes: Attributes) -> Int32 in
      let options = PreviewPage.Options(
        subtitle: "\(source) · \(flags.platformName)", theme: chosenTheme, attributes: attributes)
      return PageOutput.write(PreviewPage.html(entries, options: options), to: target, command: "preview") ? 0 : 3
    }
    guard files.isEmpty else {
      guard let attributes = try? flags.attributes.merging(.object(switchedOff)) else { return finish(3) }
      var linted: [PreviewEntry] = []
      for file in files {
        guard let value = PayloadFile.read(file, command: "preview") else { return finish(3) }
        let reports = PayloadLint.lint(value, attributes: attributes, now: flags.now, options: flags.options)
        linted += FeedPreview.entries(file: file, reports: reports)
      }
      let source = files.count == 1 ? files[0] : "\(files.count) payload files"
      return finish(page(FeedPreview.feedOrdered(linted, attributes: attributes), source, attributes))
    }
    let path = store ?? StoreFile.defaultPath(environment: environment)
    guard Files.exists(path) else { return finish(fail("no store at \(path)")) }
    InboxStore.open(InboxStore.Options(path: path)) { opened in
      do {
        let store = try opened.get()
        defer { try? store.close() }
        let entries = try FeedPreview.entries(store: store, patch: patch, now: flags.now)
        finish(page(entries, "store \(path)", try FeedPreview.attributes(store: store, patch: patch)))
      } catch {
        finish(fail("\(path): \(error)"))
      }
    }
  }

  /// The flags that turn an attribute of the screen off, by the attribute.
  private static let switches = ["--no-swipe-to-delete": "swipeToDelete", "--no-pull-to-refresh": "pullToRefresh"]

  private static func usage(_ message: String) -> Int32 {
    PayloadFlags.usage("preview", message)
  }

  private static func fail(_ message: String) -> Int32 {
    StandardStreams.writeStderr("inbox-rpc preview: \(message)\n")
    return 3
  }
}
