// swift-tools-version:6.0
// The inbox-rpc package: a stdio JSON-RPC 2.0 server around a mobile-inbox engine, with an MCP face.
// Dependencies point one way: the faces (InboxServer: JSON-RPC; InboxMCP: MCP), each over the
// transport (JSONRPC), -> what both faces share (InboxContract: params decoded once, results and
// error codes encoded) -> application (InboxApp: the use cases, opened from the options) -> store and
// sync (InboxStore, InboxSync) -> engine (InboxCore, pure).
import PackageDescription

let package = Package(
  name: "inbox-rpc",
  products: [
    .executable(name: "inbox-rpc", targets: ["inbox-rpc"]),
    .library(
      name: "InboxRPCKit",
      targets: [
        "JSON", "JSONRPC", "InboxCore", "InboxPreview", "InboxStore", "InboxSync", "InboxApp", "InboxContract",
        "InboxServer", "InboxMCP",
      ]),
  ],
  targets: [
    .systemLibrary(
      name: "CJansson", pkgConfig: "jansson", providers: [.apt(["libjansson-dev"])]),
    // Linked statically (module.modulemap): the shared library's 1,238 symbols bound at load were
    // a third of a start's instructions.
    .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
    // libcurl's header only: the library is loaded with dlopen on the first backend call.
    .target(name: "CCurl"),
    // OpenSSL's libcrypto, likewise loaded with dlopen on the first digest a trace takes.
    .target(name: "CCrypto"),
    // zlib's minizip, likewise loaded with dlopen when a wallet pass is checked.
    .target(name: "CMinizip"),
    // GNU libmicrohttpd, likewise loaded with dlopen, by `inbox-rpc backend` alone.
    .target(name: "CMicroHTTPD"),
    // The empty store's bytes, generated from the migrations (script/gen-empty-store).
    .target(name: "CEmptyStore"),
    .target(name: "Posix", dependencies: ["CCrypto"]),
    .target(
      name: "InboxTestSupport", dependencies: ["InboxApp", "InboxStore", "InboxSync", "Posix"], path: "Tests/InboxTestSupport"),
    // Posix for `FileName`: text for people shows a file name's bytes that are not UTF-8 as `\xNN`.
    .target(name: "JSON", dependencies: ["CJansson", "Posix"]),
    .target(name: "JSONRPC", dependencies: ["JSON", "Posix"]),
    .target(
      name: "JSONSchema", dependencies: ["JSON"], exclude: ["README.md"],
      resources: [.embedInCode("Resources/keywords.json")]),
    // Findings with file positions, and the formats CI systems read (SARIF, JUnit, workflow commands).
    .target(name: "LintReport", dependencies: ["JSON"]),
    .target(name: "InboxCore", dependencies: ["JSON"]),
    .target(name: "InboxPreview", dependencies: ["JSON", "InboxCore"]),
    .target(name: "InboxStore", dependencies: ["CEmptyStore", "CSQLite", "JSON", "InboxCore", "Posix"]),
    .target(name: "InboxSync", dependencies: ["CCurl", "CMinizip", "JSON", "InboxCore", "InboxStore", "Posix"]),
    .target(
      name: "InboxApp",
      dependencies: ["JSON", "JSONSchema", "InboxCore", "InboxPreview", "InboxStore", "InboxSync", "Posix"],
      resources: [
        .embedInCode("Resources/openrpc.json"), .embedInCode("Resources/sample-feed.json"),
        // The release number, kept in VERSION at the top of the checkout (the packages read it too).
        .embedInCode("Resources/VERSION"),
      ]),
    .target(
      name: "InboxContract",
      dependencies: [
        "JSON", "JSONRPC", "JSONSchema", "InboxApp", "InboxCore", "InboxPreview", "InboxStore", "InboxSync",
      ]),
    .target(
      name: "InboxServer",
      dependencies: ["JSON", "JSONRPC", "InboxContract", "InboxApp", "InboxStore", "InboxSync", "Posix"]),
    .target(
      name: "InboxMCP", dependencies: ["JSON", "JSONRPC", "JSONSchema", "InboxContract", "InboxApp", "InboxCore"]),
    // `inbox-rpc lint`: payload files read as the service reads them, with each finding's place.
    .target(
      name: "InboxLint", dependencies: ["JSON", "LintReport", "InboxApp", "InboxCore", "InboxPreview", "Posix"]),
    // `check-trace` and `replay`: a trace read back, checked against the contract, replayed.
    .target(
      name: "InboxTrace",
      dependencies: ["JSON", "JSONRPC", "JSONSchema", "LintReport", "InboxApp", "InboxMCP", "InboxSync", "Posix"]),
    // `inbox-rpc lsp`: the lint, the cards and the preview in an editor, over the Language Server Protocol.
    .target(
      name: "InboxLSP",
      dependencies: ["JSON", "JSONRPC", "LintReport", "InboxApp", "InboxCore", "InboxPreview", "Posix"]),
    // `inbox-rpc backend`: a double of the Pushwoosh inbox backend for hosts' tests.
    .target(name: "InboxBackend", dependencies: ["CMicroHTTPD", "JSON", "InboxCore", "Posix"]),
    .executableTarget(
      name: "inbox-rpc",
      dependencies: [
        "JSON", "InboxApp", "InboxContract", "InboxServer", "InboxMCP", "InboxPreview", "InboxStore", "InboxSync",
        "JSONRPC",
        "JSONSchema",
        "LintReport", "Posix", "InboxLSP", "InboxLint", "InboxTrace", "InboxBackend",
      ]),
    .testTarget(name: "JSONTests", dependencies: ["JSON", "CJansson", "InboxTestSupport"], exclude: ["Fixtures"]),
    .testTarget(name: "JSONRPCTests", dependencies: ["JSONRPC", "JSON", "Posix", "InboxTestSupport"]),
    .testTarget(name: "JSONSchemaTests", dependencies: ["JSONSchema", "JSON"]),
    .testTarget(name: "InboxLSPTests", dependencies: ["InboxLSP", "InboxApp", "LintReport", "JSON"]),
    .testTarget(name: "LintReportTests", dependencies: ["LintReport", "JSON"]),
    .testTarget(name: "InboxLintTests", dependencies: ["InboxLint", "InboxApp", "InboxCore", "LintReport", "JSON"]),
    .testTarget(name: "InboxTraceTests", dependencies: ["InboxTrace", "LintReport", "JSON", "Posix"]),
    .testTarget(name: "InboxMCPTests", dependencies: ["InboxMCP", "InboxApp", "JSON", "JSONSchema"]),
    .testTarget(
      name: "InboxContractTests", dependencies: ["InboxContract", "InboxApp", "JSON", "JSONRPC"]),
    .testTarget(name: "InboxCoreTests", dependencies: ["InboxCore", "JSON"], exclude: ["Fixtures"]),
    .testTarget(
      name: "InboxStoreTests", dependencies: ["InboxStore", "InboxCore", "JSON", "InboxTestSupport"],
      exclude: ["Fixtures"]),
    .testTarget(name: "InboxPreviewTests", dependencies: ["InboxPreview", "InboxCore", "JSON"]),
    .testTarget(
      name: "InboxAppTests",
      dependencies: ["InboxApp", "InboxStore", "InboxSync", "InboxCore", "JSON", "Posix", "InboxTestSupport"]),
    .testTarget(name: "InboxServerTests", dependencies: ["InboxServer", "InboxContract", "JSONRPC", "JSON"]),
    .testTarget(name: "InboxBackendTests", dependencies: ["InboxBackend", "JSON"]),
    .testTarget(
      name: "InboxSyncTests", dependencies: ["InboxSync", "InboxStore", "InboxCore", "JSON", "InboxTestSupport"],
      exclude: ["Fixtures"]),
  ]
)
