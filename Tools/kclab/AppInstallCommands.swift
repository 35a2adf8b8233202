import ArgumentParser
import DeviceProtocol
import Foundation
import LabControl

extension AppCommand {
    /// `kclab app delete …`
    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete the app from its device, as the home screen does.",
            discussion: """
                The bundle goes and associationd forgets the app's associations (they last "until the app \
                is deleted"). Its keychain items stay, as on iOS: `kclab app install` brings the app back \
                and it finds them again.
                """
        )

        @OptionGroup var target: AppCommand.Target

        func run() throws {
            try printApp(try target.client().send(DeviceRequest(.uninstall, app: target.app)), "deleted")
        }
    }

    /// `kclab app install …`
    struct Install: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Install a world app on the device again (after kclab app delete), verified as at boot.",
            discussion: "Its associated domains are decided again, from scratch."
        )

        @OptionGroup var target: AppCommand.Target

        func run() throws {
            try printApp(try target.client().send(DeviceRequest(.install, app: target.app)), "installed")
        }
    }
}

private func printApp(_ response: DeviceResponse, _ what: String) throws {
    if let error = response.error { throw fail(error) }
    guard let app = response.app else { throw fail("the device did not describe the app") }
    say("\(what) \(app.bundleID) (\(app.appIDText))")
}
