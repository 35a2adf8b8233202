import AppIdentity
import AssociationAPI
import DeviceProtocol
import Foundation
import Logging
import NIOHTTP1
import ServiceSupport
import WorldFile

extension Device {
    /// Deletes an app as the home screen does: the bundle goes, and associationd forgets its
    /// associations ("it remains associated until the app is deleted"). Its keychain items stay, as
    /// on iOS: installed again, it finds them.
    func uninstall(_ bundleID: String) async -> Result<AppInfo, Installer.Refusal> {
        guard let app = removeApp(bundleID) else {
            return .failure(Installer.Refusal(reasons: [notInstalled(bundleID)]))
        }
        installer.remove(bundleID)
        if let associations, let appID = app.info.appID {
            let path = "/v1/apps/" + (appID.rawValue.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? appID.rawValue)
            do {
                _ = try await associations.send(.DELETE, path, [String: String](), as: [String: String].self)
            } catch {
                logger.warning("associationd did not forget the app", metadata: ["app.bundle": "\(bundleID)", "error": "\(error)"])
            }
        }
        logger.info("app deleted", metadata: ["app.bundle": "\(bundleID)"])
        return .success(app.info)
    }

    /// Installs a world app again: verified like any install, registered, its domains associated.
    func install(_ bundleID: String) async -> Result<AppInfo, Installer.Refusal> {
        guard app(bundleID) == nil else { return .failure(Installer.Refusal(reasons: ["\(bundleID) is already installed"])) }
        guard let id = try? BundleID(bundleID) else { return .failure(Installer.Refusal(reasons: ["'\(bundleID)' is not a bundle ID"])) }
        switch installer.reinstall(id) {
        case .failure(let refusal):
            logger.warning("install refused", metadata: ["app.bundle": "\(bundleID)", "app.reasons": "\(refusal.reasons)"])
            return .failure(refusal)
        case .success(let installed):
            let info = await adopt(installed)
            logger.info("app installed", metadata: ["app.bundle": "\(bundleID)", "app.id": "\(info.appID?.rawValue ?? "none")"])
            return .success(info)
        }
    }
}
