import JSON

/// The contract, Schemas/openrpc.json as embedded at build time: the input shapes lint checks
/// payloads against, and the document both faces publish and check params with.
public enum Contract {
  /// Parsed once, on first use; the file is part of the build, so a parse failure is a build defect.
  public static let document: JSONValue = {
    do {
      return try JSONValue.parse(bytes: PackageResources.openrpc_json, options: JSONReadOptions(maxDepth: 256))
    } catch {
      fatalError("Schemas/openrpc.json is not valid JSON: \(error)")
    }
  }()
}
