public import WorldFile
public import WorldLayout

extension WorldLayout {
    /// Where `app`'s bundle goes: its update's folder for the later version.
    public static func bundle(for app: App) -> String { app.isUpdate ? updateBundle(app.bundleID) : bundle(app.bundleID) }
    /// Where `app`'s profile goes.
    public static func profile(for app: App) -> String { app.isUpdate ? updateProfile(app.bundleID) : profile(app.bundleID) }
}
