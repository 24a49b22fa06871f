// swift-tools-version:6.0
// The libFuzzer harness for inbox-rpc: a separate package so the root package's build and tests
// never see fuzzer flags. Build and run with fuzz/run; see Sources/InboxRPCFuzz/Fuzz.swift.
import PackageDescription

let package = Package(
  name: "inbox-rpc-fuzz",
  dependencies: [
    // Named, so the product reference below does not depend on the checkout directory's name.
    .package(name: "inbox-rpc", path: "..")
  ],
  targets: [
    .executableTarget(
      name: "InboxRPCFuzz",
      dependencies: [.product(name: "InboxRPCKit", package: "inbox-rpc")],
      // libFuzzer supplies main(); the one source file holds declarations only.
      swiftSettings: [.unsafeFlags(["-parse-as-library"])]
    )
  ]
)
