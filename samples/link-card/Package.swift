// swift-tools-version:6.0
import PackageDescription

// A program using thumbify as another package would: by path, through the `Thumbify` product only.
let package = Package(
  name: "link-card",
  // Named, because a path dependency is otherwise known by its directory's name (`thumbify` in a
  // clone, something else in a worktree).
  dependencies: [.package(name: "thumbify", path: "../..")],
  targets: [
    .executableTarget(
      name: "link-card", dependencies: [.product(name: "Thumbify", package: "thumbify")])
  ],
  swiftLanguageModes: [.v6]
)
