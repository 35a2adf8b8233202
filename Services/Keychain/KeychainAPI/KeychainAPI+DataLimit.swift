import KeychainTypes

extension KeychainAPI.CallRequest {
    /// The most `kSecValueData` one keychain item holds. Larger data is errSecParam: the device
    /// refuses it before sending, and keychaind refuses it again (a device is not trusted to check).
    public static let maximumDataSize = 1 << 20

    /// errSecParam naming the size when the query or the attributes to update carry data over
    /// ``maximumDataSize``; nil otherwise. `function` is Apple's name of the call (`SecItemAdd`).
    public func oversizedData(function: String) -> KeychainAPI.CallResponse? {
        guard let size = Self.oversizedData(in: query) ?? attributesToUpdate.flatMap(Self.oversizedData) else { return nil }
        let reason = "\(function): \(size) bytes of data is more than the 1 MiB a keychain item may hold"
        return KeychainAPI.CallResponse(status: .param, result: nil, reason: reason)
    }

    private static func oversizedData(in dictionary: [String: SecValue]) -> Int? {
        guard case .data(let data)? = dictionary["v_Data"], data.count > maximumDataSize else { return nil }
        return data.count
    }
}
