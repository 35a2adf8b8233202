import AppIdentity
import LabErrors
import Testing

/// Home Assistant's code-signing style: a name of three parts, an operator inside, a `$NAME` default.
private let homeAssistantStyle = "$(STYLE_$(TEAM)_$(TARGET:c99extidentifier):default=$STYLE_DEFAULT)"

/// The lab's one `$(…)` expander: Xcode's operators, chains, `:default=`, nested names,
/// `$(inherited)`, and what each policy does with a problem (a world file refuses it, an Xcode
/// project says it and goes on).
@Suite struct BuildSettingExpanderTests {
    /// `text` expanded over `settings` as an Xcode project's settings are: the value, the problems
    /// said and the names that resolved to nothing.
    static func lenient(_ text: String, _ settings: [String: String] = [:]) -> (value: String, problems: [String], unresolved: [String]) {
        var expander = BuildSettingExpander(policy: .lenient, levels: [settings])
        let value = (try? expander.expand(text)) ?? "<threw>"
        return (value, expander.problems, expander.unresolved)
    }

    static let strictSettings = ["A": "a", "LOOP_A": "$(LOOP_B)", "LOOP_B": "$(LOOP_A)"]

    static func strict(_ text: String) throws(IdentityError) -> String {
        var expander = BuildSettingExpander(policy: .strict(known: strictSettings.keys.sorted()), levels: [strictSettings])
        return try expander.expand(text)
    }

    @Test(arguments: [
        ("lower", "My App", "my app"),
        ("upper", "My App", "MY APP"),
        ("rfc1034identifier", "My App_2.0", "My-App-2-0"),
        ("rfc1034identifier", "9Lives", "-Lives"),
        ("identifier", "My App-2.0", "My_App_2_0"),
        ("identifier", "9 lives", "__lives"),
        ("c99extidentifier", "Café Crème", "Café_Crème"),
        ("c99extidentifier", "2Fast", "_Fast"),
        ("dir", "a/b/c.txt", "a/b/"),
        ("dir", "c.txt", "./"),
        ("dir", "/c.txt", "/"),
        ("dir", "a/b/", "a/"),
        ("file", "a/b/c.txt", "c.txt"),
        ("file", "a/b/", "b"),
        ("base", "a/b/c.tar.gz", "c.tar"),
        ("base", "a/.profile", ".profile"),
        ("suffix", "a/b/c.tar.gz", ".gz"),
        ("suffix", "a/b/README", ""),
        ("standardizepath", "/a/./b/../c//d/", "/a/c/d"),
        ("standardizepath", "./a/../b/", "a/../b"),
    ])
    func eachOperatorAsXcodeAppliesIt(_ operation: String, _ value: String, _ expected: String) {
        let expanded = Self.lenient("$(V:\(operation))", ["V": value])
        #expect(expanded.value == expected)
        #expect(expanded.problems.isEmpty && expanded.unresolved.isEmpty)
    }

    @Test(arguments: [
        ("$(V:lower:rfc1034identifier)", ["V": "My App"], "my-app"),
        ("$(V:file:base:upper)", ["V": "/tmp/Build/Notes.app"], "NOTES"),
        ("com.example.$(PRODUCT_NAME:rfc1034identifier)", ["PRODUCT_NAME": "$(TARGET_NAME)", "TARGET_NAME": "My Notes"], "com.example.My-Notes"),
        ("${BASE_ID}.$(V:lower)", ["BASE_ID": "org.example", "V": "Widget"], "org.example.widget"),
    ])
    func operatorsChainLeftToRight(_ text: String, _ settings: [String: String], _ expected: String) {
        #expect(Self.lenient(text, settings).value == expected)
    }

    /// `:default=` gives a value to a name that is undefined or empty (Secretive's `.xcconfig`
    /// names its team and bundle ID so); its value may hold references and ends at a colon.
    @Test(arguments: [
        ("$(SECRETIVE_BASE_BUNDLE_ID_OSS:default=com.maxgoedjen.Secretive).Host", [String: String](), "com.maxgoedjen.Secretive.Host"),
        ("$(EMPTY:default=fallback)", ["EMPTY": ""], "fallback"),
        ("$(SET:default=fallback)", ["SET": "given"], "given"),
        ("$(MISSING:default=$(OTHER).x)", ["OTHER": "o"], "o.x"),
        ("$(MISSING:default=Team:lower)", [String: String](), "team"),
    ])
    func defaultGivesAValueToWhatIsUnsetOrEmpty(_ text: String, _ settings: [String: String], _ expected: String) {
        let expanded = Self.lenient(text, settings)
        #expect(expanded.value == expected)
        #expect(expanded.unresolved.isEmpty, "a name with a default is not unresolved")
    }

    @Test(arguments: [
        ("$(FOO_$(BAR))", ["BAR": "X", "FOO_X": "found"], "found"),
        ("$(A_$(B_$(C)))", ["C": "c", "B_c": "b", "A_b": "deep"], "deep"),
        (homeAssistantStyle, ["TEAM": "T1", "TARGET": "My App", "STYLE_DEFAULT": "Automatic"], "Automatic"),
        (homeAssistantStyle, ["TEAM": "T1", "TARGET": "My App", "STYLE_T1_My_App": "Manual"], "Manual"),
    ])
    func namesMadeOfReferences(_ text: String, _ settings: [String: String], _ expected: String) {
        #expect(Self.lenient(text, settings).value == expected)
    }

    /// `$$` is a dollar sign; `$NAME` expands when defined and stays as written when not, as Xcode
    /// keeps it; a `$` before anything else is itself.
    @Test(arguments: [
        ("$$(FOO)", "$(FOO)"),
        ("$FOO-bar", "x-bar"),
        ("$UNDEFINED.x", "$UNDEFINED.x"),
        ("cost $5", "cost $5"),
        ("trailing $", "trailing $"),
    ])
    func dollarSignsAsXcodeReadsThem(_ text: String, _ expected: String) {
        let expanded = Self.lenient(text, ["FOO": "x"])
        #expect(expanded.value == expected)
        #expect(expanded.unresolved.isEmpty)
    }

    /// `$(inherited)`, and a setting naming itself, read the level beneath; in the caller's own
    /// text there is nothing beneath.
    @Test func inheritedReadsTheLevelBeneath() throws {
        var expander = BuildSettingExpander(
            policy: .lenient,
            levels: [["FLAGS": "$(inherited) -top", "TEAM": "$(TEAM).mine"], ["FLAGS": "-base", "TEAM": "ABC"], ["FLAGS": "-never"]]
        )
        let flags = try expander.value(of: "FLAGS")
        let team = try expander.value(of: "TEAM")
        let nowhere = try expander.value(of: "NOWHERE")
        let inherited = try expander.expand("[$(inherited)]")
        #expect(flags == "-base -top")
        #expect(team == "ABC.mine", "a setting naming itself")
        #expect(nowhere == nil)
        #expect(inherited == "[]")
        #expect(expander.unresolved.isEmpty && expander.problems.isEmpty)
    }

    @Test func anUnknownNameExpandsToNothingAndIsRecorded() {
        let expanded = Self.lenient("$(NOPE)x$(NOPE)$(ALSO)")
        #expect(expanded.value == "x")
        #expect(expanded.unresolved == ["NOPE", "ALSO"])
    }

    /// A world file's policy: every problem is an error that says what is wrong.
    @Test(arguments: [
        ("$(A", "never closed"),
        ("x$(A:default=$(B", "never closed"),
        ("$(NOPE)", "unknown build variable $(NOPE) in '$(NOPE)' (known: $(A), $(LOOP_A), $(LOOP_B))"),
        ("$(NOPE:default=x)", "unknown build variable $(NOPE)"),
        ("$(inherited)", "unknown build variable $(inherited)"),
        ("$(A:bogus)", ":bogus, an operator Xcode does not have"),
        ("$(A:suffix=.txt)", ":suffix=, an operator the lab does not read"),
        ("$()", "names no setting"),
        ("$(LOOP_A)", "refers to itself"),
        (String(repeating: "$(A", count: 20) + String(repeating: ")", count: 20), "nests references more than 16 deep"),
    ])
    func strictRefusesWithAClearError(_ text: String, _ saying: String) {
        let error = #expect(throws: IdentityError.self) { try Self.strict(text) }
        #expect(error?.code == .malformedValue)
        #expect(error?.message.contains(saying) == true, "\(String(describing: error?.message))")
    }

    @Test func strictExpandsWhatIsKnown() throws {
        #expect(try Self.strict("$(A:upper)-${A}-$A") == "A-a-a")
    }

    /// Xcode's policy: the same problems are said, and expansion goes on.
    @Test(arguments: [
        ("x$(FOO", "x$(FOO", "never closed"),
        ("$(A:bogus)!", "a!", "an operator Xcode does not have: ignored"),
        ("<$(LOOP_A)>", "<>", "refers to itself through other settings: expanded to nothing"),
        (String(repeating: "$(", count: 10_000), String(repeating: "$(", count: 10_000), "nests references more than 16 deep"),
    ])
    func lenientSaysTheProblemAndGoesOn(_ text: String, _ expected: String, _ saying: String) {
        let expanded = Self.lenient(text, Self.strictSettings)
        #expect(expanded.value == expected)
        #expect(expanded.problems.contains { $0.contains(saying) }, "\(expanded.problems)")
    }

    /// Settings that double at each level, and a chain deeper than the limit: each value stays
    /// within the length, all of them within the budget, and each cut is said.
    @Test func hostileSettingsAreCutShort() throws {
        let limits = BuildSettingExpander.Limits(depth: 8, length: 32, budget: 256, nesting: 16)
        let settings = Self.doublingAndChain()
        var doubling = BuildSettingExpander(policy: .lenient, limits: limits, levels: [settings])
        let doubled = try doubling.value(of: "S7") ?? ""
        #expect(doubled.utf8.count <= 32)
        #expect(doubling.problems.contains { $0.contains("$(S4) expands to more than 32 characters") }, "\(doubling.problems)")
        #expect(doubling.problems.contains { $0.contains("more than 256 characters") }, "\(doubling.problems)")

        var chain = BuildSettingExpander(policy: .lenient, limits: limits, levels: [settings])
        let chained = try chain.value(of: "C20") ?? ""
        #expect(chained == String(repeating: "c", count: 8), "the 9th setting down is cut")
        #expect(chain.problems.contains { $0.contains("$(C12) refers to settings more than 8 deep") }, "\(chain.problems)")

        func strictly() throws(IdentityError) {
            var strict = BuildSettingExpander(policy: .strict(known: []), limits: limits, levels: [settings])
            _ = try strict.value(of: "S7")
        }
        let error = #expect(throws: IdentityError.self) { try strictly() }
        #expect(error?.message.contains("$(S4) expands to more than 32 characters") == true)
    }

    /// `S0` of 4 bytes and each `S…` twice the one before; `C0` and each `C…` one byte more.
    static func doublingAndChain() -> [String: String] {
        var settings = ["S0": "xxxx", "C0": "c"]
        for level in 1...20 {
            settings["S\(level)"] = "$(S\(level - 1))$(S\(level - 1))"
            settings["C\(level)"] = "$(C\(level - 1))c"
        }
        return settings
    }

    /// Fifty thousand references to one setting: read in one pass, the setting expanded once.
    @Test func manyReferencesExpandInOnePass() throws {
        let expanded = Self.lenient(String(repeating: "$(A)-", count: 50_000), ["A": "$(B)b", "B": "a"])
        #expect(expanded.value.utf8.count == 150_000)
        #expect(expanded.value.hasPrefix("ab-ab-") && expanded.problems.isEmpty)
    }
}
