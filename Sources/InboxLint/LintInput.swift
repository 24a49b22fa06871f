import JSON
import LintReport
import Posix

/// One file `lint` reads: its text as written (for positions) and its JSON, or the finding that
/// says why it has none.
public struct LintInput {
  public var file: String
  public var text: SourceText
  public var value: Result<JSONValue, FileProblem>

  public init(file: String, text: SourceText, value: Result<JSONValue, FileProblem>) {
    self.file = file
    self.text = text
    self.value = value
  }

  /// Why a file yields no payloads: a finding of its own, so CI reports show it too.
  public struct FileProblem: Error {
    public var finding: Finding
  }

  /// The files the command line names: each directory stands for its `*.json` files at any depth,
  /// `-` for standard input. A directory that cannot be read is a problem of its own.
  public static func expand(_ arguments: [String]) -> [Result<String, FileProblem>] {
    arguments.flatMap { argument -> [Result<String, FileProblem>] in
      guard argument != "-", Files.isDirectory(argument) else { return [.success(argument)] }
      do {
        return try Files.files(under: argument, endingWith: ".json").map { .success($0) }
      } catch {
        return [.failure(problem(argument, .start, "unreadable", "\(error)"))]
      }
    }
  }

  /// Reads and parses `file`; a UTF-8 byte order mark is read past (the parser refuses one).
  public static func read(_ file: String) -> LintInput {
    switch bytes(of: file) {
    case .success(let bytes): parse(file, SourceText(bytes))
    case .failure(let problem): LintInput(file: file, text: SourceText([]), value: .failure(problem))
    }
  }

  /// The bytes of `file` (`-`: standard input), or why they cannot be read.
  public static func bytes(of file: String) -> Result<[UInt8], FileProblem> {
    do {
      return .success(file == "-" ? try Files.readAll(0) : try Files.contents(of: file))
    } catch {
      return .failure(problem(file, .start, "unreadable", "\(error)"))
    }
  }

  /// Parses a file's bytes already read (an editor's buffer).
  public static func parse(_ file: String, _ bytes: [UInt8]) -> LintInput {
    parse(file, SourceText(bytes))
  }

  /// Parses a file's text.
  public static func parse(_ file: String, _ text: SourceText) -> LintInput {
    do {
      return LintInput(file: file, text: text, value: .success(try JSONValue.parse(bytes: text.json, options: options)))
    } catch {
      let offset = error.position >= 0 ? error.position + SourceText.bomLength(text.bytes) : 0
      let position = SourcePosition(offset: offset, in: text.bytes)
      return LintInput(file: file, text: text, value: .failure(problem(file, position, "notJSON", error.message)))
    }
  }

  /// The limits a payload file is read under.
  public static let options = JSONReadOptions(maxDepth: 256)

  static func problem(_ file: String, _ position: SourcePosition, _ rule: String, _ message: String) -> FileProblem {
    FileProblem(finding: Finding(file: file, position: position, ruleId: rule, severity: .error, message: message))
  }
}
