extension ReplaySandbox {
  /// The child's command line: the face, `--replay-sandbox` with the listener, the store, then
  /// `--test-clock` at the trace's first second and `--log-level error` unless the options name their own.
  public func serverArguments(plan: ReplayPlan) -> [String] {
    var options = self.options
    var face: [String] = []
    if options.first == "mcp" {
      options.removeFirst()
      face = ["mcp"]
    } else if plan.isMCP {
      face = ["mcp"]
    }
    let names = Set(options.map { String($0.split(separator: "=", maxSplits: 1).first ?? "") })
    // The server's warnings about the cards were seen when the trace was made.
    if !names.contains("--log-level") { options = ["--log-level", "error"] + options }
    if !names.contains("--test-clock"), let first = plan.firstTime {
      options = ["--test-clock", String(first / 1000)] + options
    }
    return face + serverOptions + options
  }
}
