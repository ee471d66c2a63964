internal import CPugiShim
import Glibc

/// A document as pugixml reads it with its default options, the way Touchégg
/// loads touchegg.conf (`xml_document::load_file`): comments, processing
/// instructions and the DOCTYPE are not kept, CDATA is, the five predefined
/// entities and character references are expanded and any other `&name;` is
/// left as written; no DTD is read. On a parse error the tree holds what was
/// read before it, as pugixml leaves it.
final class PugiDocument {
    private let document: OpaquePointer
    /// Whether pugixml read the whole file: Touchégg refuses a file it did not.
    let parsed: Bool
    /// pugixml's words for what went wrong, and where (bytes from the start).
    let problem: String
    let problemOffset: Int

    init?(_ bytes: [UInt8]) {
        var result = gm_pugi_result()
        let loaded = bytes.withUnsafeBytes { gm_pugi_load($0.baseAddress, $0.count, &result) }
        guard let loaded else { return nil }
        document = loaded
        parsed = result.ok == 1
        problem = result.description.map { String(cString: $0) } ?? "malformed XML"
        problemOffset = result.offset
    }

    deinit { gm_pugi_free(document) }

    /// `document_element()`: the first element at the top level.
    var documentElement: PugiNode { PugiNode(gm_pugi_document_element(document), in: self) }

    /// The nodes at the top level: elements and text.
    var topLevel: [PugiNode] { PugiNode(gm_pugi_document_node(document), in: self).children }
}

/// One node of a `PugiDocument`; the empty node (`isNull`) answers as pugixml's
/// does: no name, no children, "" for every value.
struct PugiNode {
    enum Kind: Int32 {
        case null = 0, document, element, pcdata, cdata, comment, processingInstruction, declaration, doctype
    }

    fileprivate let handle: UnsafeRawPointer?
    /// Keeps the tree the handle points into alive.
    fileprivate let owner: PugiDocument

    fileprivate init(_ handle: UnsafeRawPointer?, in owner: PugiDocument) {
        self.handle = handle
        self.owner = owner
    }

    var isNull: Bool { handle == nil }
    var kind: Kind { Kind(rawValue: gm_pugi_type(handle)) ?? .null }
    var name: PugiText { PugiText(gm_pugi_name(handle)) }
    /// `child_value()`: the first PCDATA or CDATA child's text, up to a NUL.
    var childValue: PugiText { PugiText(gm_pugi_child_value(handle)) }
    /// Bytes from the start of the file; nil when pugixml cannot say.
    var offset: Int? {
        let offset = gm_pugi_offset(handle)
        return offset >= 0 ? offset : nil
    }

    var children: [PugiNode] {
        var out: [PugiNode] = []
        var child = gm_pugi_first_child(handle)
        while let c = child {
            out.append(PugiNode(c, in: owner))
            child = gm_pugi_next_sibling(c)
        }
        return out
    }

    /// The child elements of this name, in order (`children(name)`).
    func children(named name: String) -> [PugiNode] {
        children.filter { $0.kind == .element && $0.name.bytes == Array(name.utf8) }
    }

    /// `child(name)`: the first child element of that name.
    func child(_ name: String) -> PugiNode { PugiNode(gm_pugi_child(handle, name), in: owner) }

    /// `attribute(name).value()`: the first attribute of that name; "" when there is none.
    func attribute(_ name: String) -> PugiText { PugiText(gm_pugi_attribute_value(gm_pugi_attribute_named(handle, name))) }

    func hasAttribute(_ name: String) -> Bool { gm_pugi_attribute_named(handle, name) != nil }

    /// Every attribute, in order, as (name, value).
    var attributes: [(name: PugiText, value: PugiText)] {
        var out: [(PugiText, PugiText)] = []
        var attribute = gm_pugi_first_attribute(handle)
        while let a = attribute {
            out.append((PugiText(gm_pugi_attribute_name(a)), PugiText(gm_pugi_attribute_value(a))))
            attribute = gm_pugi_next_attribute(a)
        }
        return out
    }
}

/// Text as pugixml gives it: bytes, which Touchégg passes on as they are,
/// valid UTF-8 or not.
struct PugiText: Equatable, Hashable {
    let bytes: [UInt8]

    init(_ pointer: UnsafePointer<CChar>?) {
        guard let pointer else { bytes = []; return }
        bytes = Array(UnsafeBufferPointer(start: pointer, count: strlen(pointer)).map { UInt8(bitPattern: $0) })
    }

    init(bytes: [UInt8]) { self.bytes = bytes }

    /// The text, when it is UTF-8; nil when some bytes are not.
    var string: String? { String(validating: bytes, as: UTF8.self) }
    /// The text for a message, any invalid byte shown as U+FFFD.
    var shown: String { String(decoding: bytes, as: UTF8.self) }
    var isEmpty: Bool { bytes.isEmpty }
}
