/// What the user answered when a Mac asked whether an app may use a login-keychain item it is
/// not trusted with ("APP wants to use your confidential information stored in “ITEM” in your
/// keychain."): the device sends the call again with the answer; Deny never reaches keychaind.
public enum UserApproval: String, Codable, Hashable, Sendable {
    /// Allow: this call only.
    case once
    /// Always Allow: this call, and the app joins the item's access control list.
    case always
}
