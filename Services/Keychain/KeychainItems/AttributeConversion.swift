import KeychainTypes

/// Converts a value given for an attribute to the attribute's kind, as securityd's `copyString`,
/// `copyBlob`, `copyNumber` and friends do; a value that cannot be converted is `errSecParam`.
enum AttributeConversion {
    /// The protection codes `SecAccessControlSetProtection` accepts.
    static func convert(_ value: SecValue, for spec: AttributeSpec) throws(SecItemError) -> SecValue {
        func invalid() -> SecItemError {
            SecItemError(.param, .attribute, "\(spec.code) cannot be a \(value.typeName)")
        }
        switch spec.kind {
        case .string:
            guard case .string = value else { throw invalid() }
            return value
        case .blob:
            switch value {
            case .string, .data: return value
            default: throw invalid()
            }
        case .number:
            // copyNumber: a number or boolean becomes a number, so does a decimal string; any other
            // string is kept as the string ("If a string converted to an int isn't equal to the int
            // printed as a string, return a CFStringRef instead"), which is how kSecAttrProtocolHTTPS
            // ("htps") is stored in ptcl.
            if let number = value.number { return .integer(number) }
            guard case .string = value else { throw invalid() }
            return value
        case .synchronizable:
            guard let number = value.number else { throw invalid() }
            return .integer(number == 0 ? 0 : 1)
        case .date:
            guard case .date = value else { throw invalid() }
            return value
        case .accessibility:
            guard let text = value.string, Accessibility(rawValue: text) != nil else {
                throw SecItemError(.param, .attribute, "pdmn must be one of ak, ck, dk, aku, cku, dku, akpu")
            }
            return value
        case .accessControl:
            guard case .dictionary(let entries) = value, let protection = entries["prot"]?.string, Accessibility(rawValue: protection) != nil
            else {
                throw SecItemError(.param, .attribute, "accc must be an access-control object with a valid protection")
            }
            return value
        }
    }
}
