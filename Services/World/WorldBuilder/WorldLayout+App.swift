public import WorldFile
public import WorldLayout

extension WorldLayout {
    /// Where `app`'s bundle goes: its update's folder for the later version, the Mac builds' folder
    /// for the Mac build of an app the world also builds for iOS.
    public static func bundle(for app: App) -> String { bundle(app.bundleID, update: app.isUpdate, macBuild: app.isMacBuild) }
    /// Where `app`'s profile goes.
    public static func profile(for app: App) -> String { profile(app.bundleID, update: app.isUpdate, macBuild: app.isMacBuild) }
}
