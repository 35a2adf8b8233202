import AppIdentity

extension Team {
    static let keys = ["id", "name", "appGroups"]

    init(yaml value: YAMLValue) throws(WorldError) {
        let mapping = try value.mapping(known: Self.keys)
        let id = try mapping.required("id").parse { text throws(IdentityError) in try TeamID(text) }
        var groups: [String] = []
        if let list = mapping.optional("appGroups") {
            for element in try list.sequence() {
                let group = try element.string()
                guard !group.isEmpty, !group.contains(where: \.isWhitespace) else {
                    throw element.error(.malformedValue, "'\(group)' is not an application group name")
                }
                groups.append(group)
            }
        }
        self.init(id: id, name: try mapping.optional("name")?.string() ?? id.rawValue, appGroups: groups)
    }
}
