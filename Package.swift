// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "hlrender",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "hlrender", targets: ["hlrender"]),
        .library(name: "Typeset", targets: ["Typeset"]),
        .library(name: "Highlight", targets: ["Highlight"]),
        .library(name: "Render", targets: ["Render"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        // C libraries, each behind one module map and one shim header.
        .systemLibrary(name: "CCairo", pkgConfig: "cairo-ft", providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(name: "CHarfBuzz", pkgConfig: "harfbuzz", providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(name: "CFontconfig", pkgConfig: "fontconfig", providers: [.apt(["libfontconfig-dev"])]),
        // ICU behind plain C functions: its headers cannot be imported next to Foundation.
        .target(name: "CTextBreak", linkerSettings: [.linkedLibrary("icuuc")]),

        .target(name: "Typeset", dependencies: ["CHarfBuzz", "CFontconfig", "CTextBreak"]),
        .target(name: "Highlight"),
        .target(name: "Render", dependencies: ["Typeset", "Highlight", "CCairo", "CFreeType"]),
        .executableTarget(name: "hlrender", dependencies: [
            "Render", "Typeset", "Highlight",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        .testTarget(name: "TypesetTests", dependencies: ["Typeset"]),
        .testTarget(name: "HighlightTests", dependencies: [
            "Highlight", .product(name: "PropertyBased", package: "swift-property-based"),
        ]),
        .testTarget(name: "RenderTests", dependencies: ["Render", "Typeset", "Highlight"],
                    resources: [.copy("References")]),
        .testTarget(name: "CLITests", dependencies: ["hlrender"]),
    ]
)
