import AppIdentity
import AssetLinks
import CMSSupport
import Crypto
import DeviceNetwork
import DeviceProtocol
import Foundation
import KeychainAPI
import KeychainCallChannel
import KeychainTypes
import LabErrors
import LoginService
import SiteAssociation
import WebAuthn
import WorldFile
import XcodeProject

/// One parser under fuzzing: the seeds its inputs grow from, and the call that must end with a
/// value or an error for any bytes, never a crash.
public struct FuzzTarget: Sendable {
    public let name: String
    public let about: String
    public let seeds: [[UInt8]]
    public let run: @Sendable ([UInt8]) -> Void
    /// The input shapes the complexity check grows eightfold (`kclab-fuzz --complexity`).
    public var shapes: [InputShape] = []

    init(name: String, about: String, seeds: [[UInt8]], run: @escaping @Sendable ([UInt8]) -> Void) {
        self.name = name
        self.about = about
        self.seeds = seeds
        self.run = run
    }

    /// The shapes each target is checked with.
    static func shapes(of name: String) -> [InputShape] {
        switch name {
        case "aasa": InputShape.aasa
        case "assetlinks": InputShape.assetLinks
        case "url-match": InputShape.patterns
        case "strict-json", "conventional-json": InputShape.json()
        case "plist": InputShape.plist
        case "world-yaml": InputShape.yaml
        case "html-forms": InputShape.html
        case "website-forms": InputShape.formBody
        case "webauthn-cbor": InputShape.cbor
        case "device-requests": InputShape.deviceRequest
        case "cms": InputShape.cms
        case "pbxproj": InputShape.pbxproj
        default: []
        }
    }

    public static func all(demoWorld: String, signedFiles: [[UInt8]]) -> [FuzzTarget] {
        let queries = [
            #"{"class": "genp", "svce": "token", "acct": "alice", "v_Data": "c2VjcmV0", "agrp": "ABCDE12345.com.example.SharedItems"}"#,
            #"{"class": "inet", "srvr": "example.com", "ptcl": "htps", "m_Limit": "m_LimitAll", "r_Attributes": true, "sync": "syna"}"#,
            #"{"class": "genp", "cdat": {"$date": "2026-01-01T00:00:00Z"}, "gena": {"$data": "AAEC"}, "nested": [1, 2.5, null, {"k": [true]}]}"#,
        ].map { Array($0.utf8) }
        let request = KeychainAPI.CallRequest(
            app: "0123abcd",
            query: ["class": .string("genp"), "acct": .string("alice"), "v_Data": .data(Data("secret".utf8)), "m_Limit": .integer(5)],
            attributesToUpdate: ["labl": .array([.string("a"), .bool(true), .date(Date(timeIntervalSince1970: 0))])]
        )
        let calls = SecItemCall.allCases.enumerated().map { index, call in
            CallMessage(id: UInt32(index), call: call, request: request).encoded()
        }
        let answers = [
            AnswerMessage(id: 7, body: .answer(.init(status: .success, result: .dictionary(["acct": .string("a")]), reason: nil))).encoded(),
            AnswerMessage(id: 8, body: .problem(.init(error: "unknownApp", message: "m", reasons: ["r"]))).encoded(),
        ]
        let associations = [
            #"{"webcredentials": {"apps": ["D3KQX62K1A.com.example.DemoApp"]}, "applinks": {"apps": [], "details": [{"appID": "A.b", "paths": ["/x/*", "NOT /y"]}]}}"#,
            ##"{"applinks": {"details": [{"appIDs": ["VA3SY54YU8.com.example.app"], "components": [{"/": "/app/*", "?": {"q": "1"}, "#": "f", "exclude": true}]}]}}"##,
            #"{"appclips": {"apps": ["ABCDE12345.com.example.Clip"]}, "activitycontinuation": {"apps": ["ABCDE12345.com.example.App"]}}"#,
        ].map { Array($0.utf8) }
        let assetLinks = [
            #"[{"relation": ["delegate_permission/common.handle_all_urls", "delegate_permission/common.get_login_creds"], "target": {"namespace": "android_app", "package_name": "com.example.app", "sha256_cert_fingerprints": ["14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"]}}]"#,
            #"[{"relation": ["delegate_permission/common.get_login_creds"], "target": {"namespace": "web", "site": "https://www.example.com:8443"}}, {"include": "https://example.com/more.json", "note": "x"}]"#,
        ].map { Array($0.utf8) }
        let plists = [
            Array(PlistValue.xmlPropertyList(["keychain-access-groups": .array([.string("ABCDE12345.*")]), "get-task-allow": .bool(true)])),
            Array(
                PlistValue.xmlPropertyList([
                    "Name": .string("p"), "CreationDate": .date(Date(timeIntervalSince1970: 0)),
                    "DeveloperCertificates": .array([.data(Data([1, 2]))]),
                    "TimeToLive": .integer(365), "Version": .real(1.5), "Entitlements": .dictionary(["a": .dictionary([:])]),
                ])
            ),
        ]
        let deviceRequests = [
            #"{"op": "add", "app": "com.example.AppOne", "query": {"class": {"string": "genp"}}}"#,
            #"{"op": "status"}"#,
            #"{"op": "run", "app": "com.example.DemoApp", "arguments": ["web-login", "--user", "alice"]}"#,
        ].map { Array($0.utf8) }
        let formBodies = [
            "csrf=0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a6978&username=alice&password=correct+horse%20battery",
            "current_password=a%26b%3Dc&new_password=%E2%9C%93%F0%9F%94%91&csrf=x",
            "a&b=&=c&%zz=1&d=%",
        ].map { Array($0.utf8) }
        let pages = [
            #"<html><form id="signin" action="/login" method="post"><input name="username" autocomplete="username">"#
                + #"<input type="password" name="password" autocomplete="current-password"><input type=hidden name=csrf value='t'></form></html>"#,
            #"<form action="/signup"><input name="u" value="a > b"><input name="p" type="password" autocomplete="new-password"></form><form></form>"#,
        ].map { Array($0.utf8) }

        let passkey = PlatformAuthenticator.register(
            rpID: "example.com",
            origin: "https://example.com",
            challenge: Array(repeating: 7, count: 32),
            credentialID: Array(repeating: 9, count: 16),
            key: P256.Signing.PrivateKey()
        )
        let attestations = [passkey.attestationObject, CBOR.map([(.int(1), .array([.text("ü"), .bytes([0]), .null, .bool(true)]))]).encoded()]
        let relyingParty = RelyingParty(id: "example.com", hosts: ["example.com"])
        let longURL = URL(string: "https://example.com/" + String(repeating: "a", count: 200))!

        let targets = [
            FuzzTarget(
                name: "webauthn-cbor",
                about: "CBOR as the website's relying party reads attestation objects and COSE keys",
                seeds: attestations
            ) { bytes in
                _ = try? CBORDecoder.decode(bytes)
            },
            FuzzTarget(
                name: "webauthn-registration",
                about: "a passkey registration (attestation object, authenticator data, COSE key) as the relying party checks it",
                seeds: attestations
            ) { bytes in
                _ = try? relyingParty.verifyRegistration(
                    clientDataJSON: passkey.clientDataJSON,
                    attestationObject: bytes,
                    challenge: Array(repeating: 7, count: 32)
                )
                _ = try? AuthenticatorData(bytes: bytes)
                _ = try? ClientData(json: bytes)
            },
            FuzzTarget(name: "conventional-json", about: "kclab's SecItem queries (ConventionalJSON)", seeds: queries) { bytes in
                _ = try? ConventionalJSON.dictionary(from: Data(bytes))
            },
            FuzzTarget(
                name: "strict-json",
                about: "the strict check of every JSON input (syntax, repeated keys)",
                seeds: queries + associations + deviceRequests
            ) {
                bytes in
                _ = StrictJSON.problem(in: Data(bytes))
            },
            FuzzTarget(name: "call-frames", about: "keychaind's call channel: calls as keychaind reads them", seeds: calls) { bytes in
                _ = CallMessage.decode(bytes)
            },
            FuzzTarget(name: "call-answers", about: "the call channel: answers as a device reads them", seeds: answers) { bytes in
                _ = try? AnswerMessage.decode(bytes)
            },
            FuzzTarget(name: "aasa", about: "apple-app-site-association files: JSON with positions, both applinks formats", seeds: associations) {
                bytes in
                _ = AssociationFile.read(Data(bytes))
            },
            FuzzTarget(name: "assetlinks", about: "Digital Asset Links statement lists (assetlinks.json)", seeds: assetLinks) { bytes in
                _ = StatementList.read(Data(bytes))
            },
            FuzzTarget(name: "plist", about: "property lists: entitlements, profiles, code directories", seeds: plists) { bytes in
                _ = try? PlistValue.dictionary(fromPropertyList: Data(bytes))
            },
            FuzzTarget(name: "device-requests", about: "lines on a device's control and app sockets", seeds: deviceRequests) { bytes in
                _ = try? JSONDecoder().decode(DeviceRequest.self, from: Data(bytes))
            },
            FuzzTarget(name: "cms", about: "CMS SignedData (profiles, code signatures, signed AASA files) through OpenSSL", seeds: signedFiles) {
                bytes in
                _ = try? SignedMessage(der: Data(bytes))
            },
            FuzzTarget(name: "website-forms", about: "form bodies as the login website reads them", seeds: formBodies) { bytes in
                _ = FormBody.fields(String(decoding: bytes, as: UTF8.self))
            },
            FuzzTarget(name: "html-forms", about: "a website's pages as a device's browser reads their forms", seeds: pages) { bytes in
                _ = HTMLForm.all(in: String(decoding: bytes, as: UTF8.self))
            },
            FuzzTarget(name: "world-yaml", about: "the world file", seeds: [Array(demoWorld.utf8)]) { bytes in
                _ = try? World.parse(yaml: String(decoding: bytes, as: UTF8.self), file: "fuzz.yaml")
            },
            FuzzTarget(
                name: "pbxproj",
                about: "Xcode's project.pbxproj (old-style property lists), and the build settings kclab world import expands",
                seeds: [InputShape.pbxprojSeed]
            ) { bytes in
                guard let plist = try? OpenStepPlistReader.read(bytes),
                    let project = try? XcodeProject(plist, name: "Fuzz", sourceRoot: URL(fileURLWithPath: "/nonexistent"), readingFiles: false)
                else { return }
                for target in project.targets {
                    _ = BuildSettings(project: project, target: target, configuration: "Debug", sdk: "iphoneos").value("PRODUCT_BUNDLE_IDENTIFIER")
                }
            },
            FuzzTarget(
                name: "url-match",
                about: "a components pattern matched against a 200-character URL path",
                seeds: ["/a/*", "/$(v)/?*", "*a*a*b"].map { Array($0.utf8) }
            ) { bytes in
                let encoded = try? JSONEncoder().encode(String(decoding: bytes, as: UTF8.self))
                let pattern = encoded.map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
                let json =
                    "{\"applinks\": {\"details\": [{\"appIDs\": [\"ABCDE12345.a\"], \"components\": [{\"/\": \(pattern)}]}], "
                    + "\"substitutionVariables\": {\"v\": [\"a\", \"aa\"]}}}"
                _ = AssociationFile.read(Data(json.utf8)).file?.match(longURL, appID: "ABCDE12345.a")
            },
        ]
        return targets.map { target in
            var shaped = target
            shaped.shapes = shapes(of: target.name)
            return shaped
        }
    }
}
