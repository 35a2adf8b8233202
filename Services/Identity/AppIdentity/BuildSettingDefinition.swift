/// One definition of a build setting, as a lookup finds it.
public struct BuildSettingDefinition: Hashable, Sendable {
    /// The setting's name.
    public var name: String
    /// Where the definition was found, 0 being the highest level; `$(inherited)` in its text, or
    /// its own name, reads the levels beneath.
    public var level: Int
    /// Its text, which may refer to other settings.
    public var text: String

    /// A definition of `name` at `level`.
    public init(name: String, level: Int, text: String) {
        self.name = name
        self.level = level
        self.text = text
    }
}
