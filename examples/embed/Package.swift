// swift-tools-version: 6.1
import PackageDescription

// An app that renders story cards with hlrender's library, depending on it by version as any
// package would. HLRENDER_PACKAGE_URL points it at another copy (scripts/embed-check.sh
// builds it against a tagged clone of this repository).
let hlrender = Context.environment["HLRENDER_PACKAGE_URL"] ?? "https://github.com/hlrender/hlrender.git"

let package = Package(
    name: "embed",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(url: hlrender, from: "0.3.0"),
    ],
    targets: [
        .executableTarget(name: "embed", dependencies: [.product(name: "HLRenderKit", package: "hlrender")]),
    ]
)
