import ArgumentParser

/// `kclab`: the one command-line tool of KeychainLab.
@main
struct Kclab: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kclab",
        abstract: "Build and inspect KeychainLab worlds: teams, signed apps, devices and websites.",
        discussion: """
            Start with `kclab demo`, or build a world of your own with `kclab world build` and check
            its bundles with `kclab bundle verify`. The world file format is in docs/world.md.
            """,
        subcommands: [
            WorldCommand.self, BundleCommand.self, UpCommand.self, DownCommand.self, StatusCommand.self, ResetCommand.self,
            AppCommand.self, DeviceCommand.self, DemoCommand.self,
        ]
    )
}
