import AppIdentity
import LabErrors
import Testing

@Suite struct BuildVariablesTests {
    let variables = BuildVariables(
        appIDPrefix: try! TeamID("ABC1234DEF"),
        team: try! TeamID("USEYRLOAF9"),
        bundleID: try! BundleID("com.useyourloaf.amazingApp1")
    )

    @Test(arguments: [
        ("$(AppIdentifierPrefix)amazingAppFamily", "ABC1234DEF.amazingAppFamily"),
        ("$(TeamIdentifierPrefix)group", "USEYRLOAF9.group"),
        ("$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)", "ABC1234DEF.com.useyourloaf.amazingApp1"),
        ("group.plain", "group.plain"),
        ("", ""),
    ])
    func expandsLikeXcode(_ text: String, _ expected: String) throws {
        #expect(try variables.expand(text) == expected)
    }

    @Test(arguments: ["$(AppIdentifierPrefx)x", "$(AppIdentifierPrefix", "$()x"])
    func rejectsUnknownOrBrokenVariables(_ text: String) {
        #expect(throws: IdentityError(.malformedValue, "")) { try variables.expand(text) }
    }

    @Test func expandsNestedValues() throws {
        let value = PlistValue.array([.string("$(TeamIdentifierPrefix)a"), .bool(true), .dictionary(["k": .string("$(AppIdentifierPrefix)b")])])
        let expected = PlistValue.array([.string("USEYRLOAF9.a"), .bool(true), .dictionary(["k": .string("ABC1234DEF.b")])])
        #expect(try variables.expand(value) == expected)
    }
}
