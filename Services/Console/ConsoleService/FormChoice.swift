/// One choice of a page's filter form: a device, a state.
public struct FormChoice: Sendable {
    /// Its text, which is also its value.
    public var name: String
    /// Whether it is the one filtered by.
    public var selected: Bool
}
