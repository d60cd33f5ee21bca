// swift-tools-version:6.0
import PackageDescription

/// A system C library wrapped by a `module.modulemap` + `shim.h` pair in `Sources/<name>`.
func systemLibrary(_ name: String, pkgConfig: String?, apt: String) -> Target {
  .systemLibrary(name: name, pkgConfig: pkgConfig, providers: [.apt([apt])])
}

let package = Package(
  name: "thumbify",
  // What another package can use: the library and the command. ThumbifyCLI is a target only, internal
  // to the package (tests run it in-process); the benchmarks stay a product for their name.
  products: [
    .library(name: "Thumbify", targets: ["Thumbify"]),
    .executable(name: "thumbify", targets: ["thumbify"]),
    .executable(name: "thumbify-benchmarks", targets: ["ThumbifyBenchmarks"]),
  ],
  targets: [
    systemLibrary("CCurl", pkgConfig: "libcurl", apt: "libcurl4-openssl-dev"),
    systemLibrary("CTurboJPEG", pkgConfig: "libturbojpeg", apt: "libturbojpeg0-dev"),
    systemLibrary("CPNG", pkgConfig: "libpng16", apt: "libpng-dev"),
    systemLibrary("CDeflate", pkgConfig: "libdeflate", apt: "libdeflate-dev"),  // PNG image data, CPNGRows
    systemLibrary("CWebP", pkgConfig: "libwebp", apt: "libwebp-dev"),
    systemLibrary("CGIF", pkgConfig: nil, apt: "libgif-dev"),
    systemLibrary("CCrypto", pkgConfig: "libcrypto", apt: "libssl-dev"),
    systemLibrary("CSQLite", pkgConfig: "sqlite3", apt: "libsqlite3-dev"),
    systemLibrary("CUchardet", pkgConfig: "uchardet", apt: "libuchardet-dev"),
    systemLibrary("CLCMS2", pkgConfig: "lcms2", apt: "liblcms2-dev"),
    systemLibrary("CAvif", pkgConfig: nil, apt: "libavif-dev"),  // pkg-config adds only -DAVIF_DLL (Windows)
    systemLibrary("CRsvg", pkgConfig: "librsvg-2.0", apt: "librsvg2-dev"),
    systemLibrary("CMicroHTTPD", pkgConfig: "libmicrohttpd", apt: "libmicrohttpd-dev"),  // thumbify serve
    .systemLibrary(name: "CLinux"),  // Linux calls Swift's Glibc module leaves out (no library)
    // The library's layers, each a target so that the compiler refuses an upward import
    // (docs/architecture.md): system → imaging, fetching, extracting → store, rendering → Thumbify → CLI.
    .target(name: "ThumbifySystem", dependencies: ["CCrypto"]),
    // libpng's row-by-row reading, in C so that its longjmp errors never cross Swift frames; libdeflate
    // inflates a plain image's data in one call there.
    .target(name: "CPNGRows", dependencies: ["CPNG", "CDeflate"]),
    // A tagged JPEG's planes converted to sRGB planes in one vectorised pass (tables, matrix, 2×2 blocks).
    .target(name: "CColourPlanes"),
    // The decode journal's fatal-signal handler (crash-loop protection), in C: async-signal-safe code.
    .target(name: "CDecodeJournal"),
    .target(
      name: "ThumbifyImaging",
      dependencies: [
        "ThumbifySystem", "CTurboJPEG", "CPNG", "CPNGRows", "CColourPlanes", "CWebP", "CGIF", "CLCMS2",
        "CAvif", "CRsvg",
      ]),
    .target(name: "ThumbifyFetching", dependencies: ["ThumbifySystem", "CCurl", "CLinux"]),
    .target(name: "ThumbifyExtracting", dependencies: ["CUchardet"]),
    // Headless Chromium over the DevTools pipe, for pages that need JavaScript (docs/rendering.md).
    .target(
      name: "ThumbifyRendering",
      dependencies: ["ThumbifySystem", "ThumbifyFetching", "ThumbifyExtracting", "CLinux"]),
    .target(
      name: "ThumbifyStore",
      dependencies: [
        "ThumbifySystem", "ThumbifyImaging", "ThumbifyExtracting", "CSQLite", "CLinux", "CDecodeJournal",
      ]
    ),
    .target(
      name: "Thumbify",
      dependencies: [
        "ThumbifySystem", "ThumbifyImaging", "ThumbifyFetching", "ThumbifyExtracting", "ThumbifyStore",
        "ThumbifyRendering",
      ]
    ),
    // SIGINT and SIGTERM's handler (a byte into a pipe), in C: async-signal-safe code.
    .target(name: "CStopSignals"),
    .target(name: "ThumbifyCLI", dependencies: ["Thumbify", "CStopSignals", "CMicroHTTPD", "CLinux"]),
    .executableTarget(name: "thumbify", dependencies: ["ThumbifyCLI"]),
    .executableTarget(
      name: "ThumbifyBenchmarks",
      dependencies: ["Thumbify", "CLCMS2"],
      path: "Benchmarks/ThumbifyBenchmarks"
    ),
    // Tests mirror the layers (docs/architecture.md, "Tests"): one test target per library target, and
    // the servers, stubs and synthetic images they share in a support target per layer, which depends
    // on its layer and the support targets below it, never upward: a layer's tests build against that
    // layer alone.
    .target(
      name: "ThumbifySystemTestSupport", dependencies: ["ThumbifySystem"],
      path: "Tests/ThumbifySystemTestSupport"),
    .target(
      name: "ThumbifyImagingTestSupport",
      dependencies: [
        "ThumbifyImaging", "ThumbifySystemTestSupport", "CPNG", "CTurboJPEG", "CWebP", "CGIF", "CLCMS2",
      ],
      path: "Tests/ThumbifyImagingTestSupport", exclude: ["Fixtures"]),
    .target(
      name: "ThumbifyFetchingTestSupport", dependencies: ["ThumbifyFetching", "ThumbifySystemTestSupport"],
      path: "Tests/ThumbifyFetchingTestSupport"),
    // Extracting stands alone; its tests take the test-running helpers (`.offThePool`) from System's.
    .target(
      name: "ThumbifyExtractingTestSupport",
      dependencies: ["ThumbifyExtracting", "ThumbifySystemTestSupport"],
      path: "Tests/ThumbifyExtractingTestSupport"),
    .target(
      name: "ThumbifyStoreTestSupport",
      dependencies: ["ThumbifyStore", "ThumbifyImagingTestSupport", "ThumbifyExtractingTestSupport"],
      path: "Tests/ThumbifyStoreTestSupport"),
    .target(
      name: "ThumbifyTestSupport",
      dependencies: ["Thumbify", "ThumbifyStoreTestSupport", "ThumbifyFetchingTestSupport"],
      path: "Tests/ThumbifyTestSupport"),
    .testTarget(name: "ThumbifySystemTests", dependencies: ["ThumbifySystemTestSupport"]),
    .testTarget(name: "ThumbifyImagingTests", dependencies: ["ThumbifyImagingTestSupport"]),
    .testTarget(name: "ThumbifyFetchingTests", dependencies: ["ThumbifyFetchingTestSupport"]),
    .testTarget(name: "ThumbifyExtractingTests", dependencies: ["ThumbifyExtractingTestSupport"]),
    .testTarget(name: "ThumbifyStoreTests", dependencies: ["ThumbifyStoreTestSupport"]),
    // Rendering has no helpers of its own: the servers and the fetcher of Fetching's support, the
    // complete page of Extracting's.
    .testTarget(
      name: "ThumbifyRenderingTests",
      dependencies: ["ThumbifyRendering", "ThumbifyFetchingTestSupport", "ThumbifyExtractingTestSupport"]),
    // The report tests run `thumbify report` in-process, hence the CLI.
    .testTarget(name: "ThumbifyTests", dependencies: ["ThumbifyTestSupport", "ThumbifyCLI"]),
    // The CLI tests also run `thumbify extract <url>` against loopback servers.
    .testTarget(name: "ThumbifyCLITests", dependencies: ["ThumbifyCLI", "ThumbifyTestSupport"]),
    // The library as another package sees it: `import Thumbify`, never `@testable` (the servers and
    // images come from two support targets, whose own imports open nothing of the library to it).
    .testTarget(
      name: "ThumbifyPublicAPITests",
      dependencies: ["Thumbify", "ThumbifyImagingTestSupport", "ThumbifyFetchingTestSupport"],
      exclude: ["Fixtures"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
