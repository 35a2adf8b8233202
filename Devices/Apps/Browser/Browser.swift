import DeviceNetwork
import Foundation
import Security

/// The browser: signs in on websites' HTML forms over HTTPS, offers to save what the user typed,
/// fills in what it saved, and shows its saved passwords. Its saved passwords are Safari's: the
/// `com.apple.cfnetwork` group its signature grants, where shared web credentials read and write.
///
///     browser login URL --user NAME [--password P] [--save yes|no|never]
///     browser signup URL --user NAME --password P [--save yes|no]
///     browser change-password URL --user NAME --new-password P [--save yes|no]
///     browser delete-account URL --user NAME
///     browser passwords [HOST] [--show]
///     browser passkey-signup URL --user NAME
///     browser passkey-login URL
@main
enum Browser {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            let command = try BrowserCommand(arguments)
            let code = try await command.run()
            exit(code)
        } catch let error as BrowserCommand.UsageError {
            FileHandle.standardError.write(Data("browser: \(error.message)\n\(BrowserCommand.usage)\n".utf8))
            exit(2)
        } catch {
            print("error: \(error)")
            exit(1)
        }
    }
}
