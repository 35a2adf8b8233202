import AppIdentifiers
import AppIdentity
import AssociationAPI
import Decisions
import KeychainAPI
import Mustache
public import WorldFile
public import WorldGraph

/// What the console serves for a world: the World and Overlap pages, rendered by swift-mustache
/// from their view models and the templates in `Templates/` (embedded in the code, so the console
/// needs no resource folder beside it), the overlap picture's SVG bytes and the stylesheet.
///
/// Rendered once, when the console starts: the world a lab was built from does not change while
/// the lab runs, and a page that is already text costs nothing to serve.
public struct ConsolePages: Sendable {
    /// The World page's model.
    public let world: WorldPage
    /// The Overlap page's model.
    public let overlap: OverlapPage
    /// The World page.
    public let worldHTML: String
    /// The Overlap page.
    public let overlapHTML: String
    /// The picture, exactly ``OverlapPicture``'s bytes (`kclab world graph --svg` writes the same).
    public let overlapSVG: [UInt8]
    /// How decisions are shown: the world's device names by UDID.
    public let rows: DecisionRows
    /// The world's devices, in the world's order.
    public let devices: [Device]
    /// Their names.
    public var deviceNames: [String] { devices.map(\.id) }

    /// The pages of `graph`, whose devices are `devices` (in the world's order).
    public init(_ graph: WorldGraph, devices: [Device] = []) {
        let picture = OverlapPicture(graph)
        rows = DecisionRows(names: Dictionary(devices.map { ($0.udid, $0.id) }, uniquingKeysWith: { first, _ in first }))
        self.devices = devices
        worldName = OverlapLayout.visible(graph.name)
        world = WorldPage(graph)
        overlap = OverlapPage(graph, picture: picture)
        worldHTML = Self.render(world, "world")
        overlapHTML = Self.render(overlap, "overlap")
        overlapSVG = Array(picture.svg.utf8)
    }

    /// The world's name, as the pages show it.
    public let worldName: String

    /// The Decisions page: the latest of `feed`'s decisions that `filter` keeps; `query` is the
    /// page's filters as its address gave them, `given` the filters as typed.
    public func decisionsHTML(
        feed: DecisionFeed,
        filter: DecisionFilter,
        given: (device: String, app: String, status: String),
        query: String
    ) async -> String {
        let shown = await feed.newest(matching: filter, limit: DecisionsPage.rowLimit)
        let page = DecisionsPage(
            world: worldName,
            devices: deviceNames,
            filter: given,
            rows: shown.map(rows.row),
            kept: await feed.count,
            made: await feed.latest,
            missed: await feed.missed,
            query: query
        )
        return Self.render(page, "decisions")
    }

    /// The Devices page.
    public var devicesHTML: String {
        Self.render(DevicesPage(world: worldName, devices: devices), "devices")
    }

    /// The page of the device named `name` (or with that UDID), its items read with `reads`; nil
    /// for a device the world does not have.
    public func deviceHTML(_ name: String, reads: DaemonReads) async -> String? {
        guard let device = devices.first(where: { $0.id == name || $0.udid == name }) else { return nil }
        let keychains = ["device:\(device.udid)"] + (device.platform == .macos ? ["login:\(device.udid)"] : [])
        let items: Result<KeychainAPI.AdminItems, any Error>
        do { items = .success(try await reads.items(keychains)) } catch { items = .failure(error) }
        return Self.render(DevicePage(world: worldName, device: device, items: items), "device")
    }

    /// The Associations page, of the device `device` (a name or a UDID; empty for every one) and
    /// in `state` (empty for any).
    public func associationsHTML(device: String, state: String, reads: DaemonReads) async -> String {
        let records: Result<[AssociationRecord], any Error>
        do { records = .success(try await reads.associations(device: device.isEmpty ? nil : rows.udid(device))) } catch { records = .failure(error) }
        return Self.render(AssociationsPage(world: worldName, records: records, names: rows.names, filter: (device, state)), "associations")
    }

    /// The stylesheet of every page, `/console.css`.
    public static var stylesheet: [UInt8] { PackageResources.console_css }

    /// The pages' one script, `/console.js`: the Decisions page's live feed.
    public static var script: [UInt8] { PackageResources.console_js }

    /// `model` rendered by the template `name`, inside the layout.
    static func render(_ model: Any, _ name: String) -> String {
        // Every name is one of the library's own.
        library.render(model, withTemplate: name) ?? ""
    }

    /// The templates: `layout` (the page around each, by Mustache's inheritance), `world`,
    /// `overlap`. The module's own templates, rendered by every test of the pages: one that does
    /// not parse is a defect of this module, not bad input.
    static let library: MustacheLibrary = {
        let templates = [
            "layout": PackageResources.layout_html_mustache,
            "world": PackageResources.world_html_mustache,
            "overlap": PackageResources.overlap_html_mustache,
            "decisions": PackageResources.decisions_html_mustache,
            "devices": PackageResources.devices_html_mustache,
            "device": PackageResources.device_html_mustache,
            "associations": PackageResources.associations_html_mustache,
        ]
        return MustacheLibrary(templates: templates.mapValues { try! MustacheTemplate(string: String(decoding: $0, as: UTF8.self)) })
    }()
}
