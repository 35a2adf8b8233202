extension CBOR {
    /// The item's encoding, with the shortest argument for each length or value (CTAP2's
    /// canonical form, but for map key order, which is the order given).
    public func encoded() -> [UInt8] {
        var out: [UInt8] = []
        Self.write(self, into: &out)
        return out
    }

    private static func head(_ major: UInt8, _ value: UInt64, into out: inout [UInt8]) {
        let type = major << 5
        switch value {
        case 0..<24: out.append(type | UInt8(value))
        case 24...0xff: out += [type | 24, UInt8(value)]
        case 0x100...0xffff: out += [type | 25] + (0..<2).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
        case 0x1_0000...0xffff_ffff: out += [type | 26] + (0..<4).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
        default: out += [type | 27] + (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
        }
    }

    private static func write(_ item: CBOR, into out: inout [UInt8]) {
        switch item {
        case .unsigned(let value): head(0, value, into: &out)
        case .negative(let value): head(1, value, into: &out)
        case .bytes(let value):
            head(2, UInt64(value.count), into: &out)
            out += value
        case .text(let value):
            head(3, UInt64(value.utf8.count), into: &out)
            out += Array(value.utf8)
        case .array(let elements):
            head(4, UInt64(elements.count), into: &out)
            for element in elements { write(element, into: &out) }
        case .map(let pairs):
            head(5, UInt64(pairs.count), into: &out)
            for pair in pairs {
                write(pair.key, into: &out)
                write(pair.value, into: &out)
            }
        case .bool(let value): out.append(value ? 0xf5 : 0xf4)
        case .null: out.append(0xf6)
        }
    }
}
