// swift-tools-version: 6.2
// KeychainUser: a small package whose keychain code is tested on Linux under KeychainLab
// (docs/testing-your-package.md). On Apple platforms `import Security` is the system's; on Linux
// it is KeychainLab's `Security` product, which only the Linux build depends on.
import PackageDescription

let package = Package(
    name: "KeychainUser",
    products: [.library(name: "KeychainUser", targets: ["KeychainUser"])],
    // Beside this folder, a checkout of KeychainLab named `keychainlab` (a path dependency's
    // identity is its folder's name); a released KeychainLab is named by its URL and version
    // instead (docs/testing-your-package.md).
    dependencies: [.package(path: "../keychainlab", traits: [])],
    targets: [
        .target(
            name: "KeychainUser",
            dependencies: [.product(name: "Security", package: "keychainlab", condition: .when(platforms: [.linux]))]
        ),
        .testTarget(
            name: "KeychainUserTests",
            dependencies: ["KeychainUser", .product(name: "Security", package: "keychainlab", condition: .when(platforms: [.linux]))]
        ),
    ]
)
