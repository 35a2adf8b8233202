import Foundation
import KeychainItems
import KeychainTypes
import Testing

/// Identities: a certificate joined with the private key whose klbl is its pkhh (spec keychain.md §2.1).
@Suite struct IdentityTests {
    typealias F = Fixtures

    static let hash = Data(repeating: 0xAB, count: 20)

    static func certificate(_ extra: [String: SecValue] = [:]) -> [String: SecValue] {
        var dictionary: [String: SecValue] = [
            "class": .string("cert"), "pkhh": .data(hash), "issr": .data(Data("issuer".utf8)), "slnr": .data(Data([1])),
            "labl": .string("Alice's certificate"), "v_Data": .data(Data("certificate-bytes".utf8)),
        ]
        dictionary.merge(extra) { $1 }
        return dictionary
    }

    static func key(_ extra: [String: SecValue] = [:]) -> [String: SecValue] {
        var dictionary: [String: SecValue] = [
            "class": .string("keys"), "kcls": .string("1"), "klbl": .data(hash), "atag": .data(Data("tag".utf8)),
            "labl": .string("Alice's key"), "v_Data": .data(Data("key-bytes".utf8)),
        ]
        dictionary.merge(extra) { $1 }
        return dictionary
    }

    static let identity: [String: SecValue] = ["class": .string("idnt")]

    @Test func anIdentityIsACertificateWithItsPrivateKey() async throws {
        let engine = F.engine()
        #expect(await engine.copyMatching(Self.identity, client: F.one).status == .itemNotFound)
        #expect(await engine.add(Self.certificate(), client: F.one).status == .success)
        #expect(await engine.copyMatching(Self.identity, client: F.one).status == .itemNotFound, "no key yet")
        #expect(await engine.add(Self.key(["kcls": .string("0"), "atag": .data(Data("public".utf8))]), client: F.one).status == .success)
        #expect(await engine.copyMatching(Self.identity, client: F.one).status == .itemNotFound, "a public key makes no identity")
        #expect(await engine.add(Self.key(), client: F.one).status == .success)

        let found = await engine.copyMatching(Self.identity.merging(["r_Attributes": .bool(true), "r_Data": .bool(true)]) { $1 }, client: F.one)
        #expect(found.status == .success)
        let attributes = try #require(found.result?.dictionaryValue)
        #expect(attributes["labl"] == .string("Alice's certificate"), "the certificate's attributes lie over the key's")
        #expect(attributes["kcls"] == .integer(1) && attributes["issr"] == .data(Data("issuer".utf8)))
        #expect(attributes["v_Data"] == .data(Data("key-bytes".utf8)), "an identity's data is its key's")

        let reference = await engine.copyMatching(Self.identity.merging(["r_PersistentRef": .bool(true)]) { $1 }, client: F.one)
        let bytes = try #require(reference.result?.data)
        #expect(bytes.count == 20 && bytes.prefix(4) == Data("idnt".utf8))
        #expect(await engine.copyMatching(["v_PersistentRef": .data(bytes)], client: F.one).status == .success)
    }

    @Test func queriesMatchTheCertificatesColumnsAndTheKeysOthers() async {
        let engine = F.engine()
        _ = await engine.add(Self.certificate(), client: F.one)
        _ = await engine.add(Self.key(), client: F.one)
        #expect(await engine.copyMatching(Self.identity.merging(["labl": .string("Alice's certificate")]) { $1 }, client: F.one).status == .success)
        #expect(await engine.copyMatching(Self.identity.merging(["labl": .string("Alice's key")]) { $1 }, client: F.one).status == .itemNotFound)
        #expect(await engine.copyMatching(Self.identity.merging(["atag": .data(Data("tag".utf8))]) { $1 }, client: F.one).status == .success)
        #expect(await engine.copyMatching(Self.identity.merging(["atag": .data(Data("x".utf8))]) { $1 }, client: F.one).status == .itemNotFound)
        #expect(await engine.copyMatching(Self.identity.merging(["svce": .string("x")]) { $1 }, client: F.one).status == .noSuchAttr)
    }

    @Test func bothHalvesMustBeReadable() async {
        let engine = F.engine()
        _ = await engine.add(Self.certificate(["agrp": .string(F.appOne)]), client: F.one)
        _ = await engine.add(Self.key(["agrp": .string(F.appOne)]), client: F.one)
        #expect(await engine.copyMatching(Self.identity, client: F.one).status == .success)
        #expect(await engine.copyMatching(Self.identity, client: F.two).status == .itemNotFound)
    }

    @Test func updateAndDeleteActOnBothHalves() async throws {
        let engine = F.engine()
        _ = await engine.add(Self.certificate(), client: F.one)
        _ = await engine.add(Self.key(), client: F.one)
        let changed = await engine.update(
            Self.identity,
            attributesToUpdate: ["labl": .string("renamed"), "atag": .data(Data("t2".utf8))],
            client: F.one
        )
        #expect(changed.status == .success)
        #expect(await engine.copyMatching(["class": .string("cert"), "labl": .string("renamed")], client: F.one).status == .success)
        #expect(await engine.copyMatching(["class": .string("keys"), "labl": .string("renamed")], client: F.one).status == .success)
        #expect(await engine.copyMatching(["class": .string("keys"), "atag": .data(Data("t2".utf8))], client: F.one).status == .success)

        let reference = await engine.copyMatching(Self.identity.merging(["r_PersistentRef": .bool(true)]) { $1 }, client: F.one)
        let bytes = try #require(reference.result?.data)
        #expect(await engine.update(["v_PersistentRef": .data(bytes)], attributesToUpdate: ["labl": .string("x")], client: F.one).status == .internal)

        #expect(await engine.delete(Self.identity, client: F.one).status == .success)
        #expect(await engine.copyMatching(["class": .string("cert")], client: F.one).status == .itemNotFound)
        #expect(await engine.copyMatching(["class": .string("keys")], client: F.one).status == .itemNotFound)
        #expect(await engine.delete(Self.identity, client: F.one).status == .itemNotFound)
    }
}
