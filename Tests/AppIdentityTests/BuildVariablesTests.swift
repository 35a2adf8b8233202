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
        ("${TeamIdentifierPrefix}group", "USEYRLOAF9.group"),
        ("$(PRODUCT_BUNDLE_IDENTIFIER:lower)", "com.useyourloaf.amazingapp1"),
        ("group.$(PRODUCT_BUNDLE_IDENTIFIER:rfc1034identifier)", "group.com-useyourloaf-amazingApp1"),
        ("cost $5", "cost $5"),
    ])
    func expandsLikeXcode(_ text: String, _ expected: String) throws {
        #expect(try variables.expand(text) == expected)
    }

    @Test(arguments: [
        "$(AppIdentifierPrefx)x", "$(AppIdentifierPrefix", "$()x", "${AppIdentifierPrefix", "$(AppIdentifierPrefix:bogus)x",
        "$(UNSET:default=x)", "$(inherited)",
    ])
    func rejectsUnknownOrBrokenVariables(_ text: String) {
        #expect(throws: IdentityError(.malformedValue, "")) { try variables.expand(text) }
    }

    /// The error names the variables a world file may use, so a typo is found at once.
    @Test func anUnknownNameListsTheKnownOnes() {
        let error = #expect(throws: IdentityError.self) { try variables.expand("$(AppIdentifierPrefx)x") }
        let known = "(known: $(AppIdentifierPrefix), $(PRODUCT_BUNDLE_IDENTIFIER), $(TeamIdentifierPrefix))"
        #expect(error?.message.contains("$(AppIdentifierPrefx)") == true && error?.message.contains(known) == true, "\(String(describing: error))")
    }

    @Test func expandsNestedValues() throws {
        let value = PlistValue.array([.string("$(TeamIdentifierPrefix)a"), .bool(true), .dictionary(["k": .string("$(AppIdentifierPrefix)b")])])
        let expected = PlistValue.array([.string("USEYRLOAF9.a"), .bool(true), .dictionary(["k": .string("ABC1234DEF.b")])])
        #expect(try variables.expand(value) == expected)
    }
}
