import Foundation

/// How many values a binary property list (`bplist00`) stands for once its shared objects are
/// repeated where they are referenced, counted from its object table without building anything.
/// A binary property list may reference one array from many places, so a few hundred bytes can
/// stand for 2^40 values, and Foundation expands them all while converting what it read; this
/// count, linear in the file, lets a reader refuse such a file before Foundation sees it.
enum BinaryPropertyListShape {
    static let magic = Array("bplist00".utf8)

    struct Malformed: Error {
        let reason: String
    }

    /// The number of values the file expands to (each reference counted), or nil when it is not a
    /// binary property list; stops counting once past `limit`.
    static func expandedCount(_ data: Data, limit: Int) throws(Malformed) -> Int? {
        let bytes = [UInt8](data)
        guard bytes.count >= magic.count + 32, Array(bytes.prefix(magic.count)) == magic else { return nil }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        let referenceSize = Int(bytes[trailer + 7])
        let objectCount = integer(bytes, at: trailer + 8, size: 8)
        let top = integer(bytes, at: trailer + 16, size: 8)
        let table = integer(bytes, at: trailer + 24, size: 8)
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize), objectCount > 0, objectCount <= bytes.count, top < objectCount,
            table >= magic.count, table <= trailer, objectCount <= (trailer - table) / offsetSize
        else { throw Malformed(reason: "the binary property list's trailer is not consistent") }
        let offsets = (0..<objectCount).map { integer(bytes, at: table + $0 * offsetSize, size: offsetSize) }
        // Each object's references, read once.
        func references(_ object: Int) throws(Malformed) -> [Int] {
            let offset = offsets[object]
            guard offset >= magic.count, offset < table else { throw Malformed(reason: "an object lies outside the file") }
            let marker = bytes[offset]
            guard [0xA, 0xC, 0xD].contains(marker >> 4) else { return [] }
            var count = Int(marker & 0x0F)
            var start = offset + 1
            if count == 0x0F {
                guard start < table, bytes[start] >> 4 == 1 else { throw Malformed(reason: "a collection's length is not an integer") }
                let size = 1 << Int(bytes[start] & 0x0F)
                guard size <= 8, start + 1 + size <= table else { throw Malformed(reason: "a collection's length runs past the objects") }
                count = integer(bytes, at: start + 1, size: size)
                start += 1 + size
            }
            let total = marker >> 4 == 0xD ? count * 2 : count
            guard count >= 0, count <= bytes.count, start + total * referenceSize <= table else {
                throw Malformed(reason: "a collection runs past the objects")
            }
            return try (0..<total).map { (index) throws(Malformed) in
                let reference = integer(bytes, at: start + index * referenceSize, size: referenceSize)
                guard reference < objectCount else { throw Malformed(reason: "a reference names no object") }
                return reference
            }
        }
        // Depth-first, each object's expanded count computed once; a cycle is malformed.
        var counts = [Int?](repeating: nil, count: objectCount)
        var onPath = [Bool](repeating: false, count: objectCount)
        var stack: [(object: Int, children: [Int], next: Int, sum: Int)] = [(top, try references(top), 0, 1)]
        onPath[top] = true
        while var frame = stack.popLast() {
            if frame.next < frame.children.count {
                let child = frame.children[frame.next]
                frame.next += 1
                if let known = counts[child] {
                    frame.sum += known
                    guard frame.sum <= limit else { return frame.sum }
                    stack.append(frame)
                } else {
                    guard !onPath[child] else { throw Malformed(reason: "the property list refers to itself") }
                    onPath[child] = true
                    stack.append(frame)
                    stack.append((child, try references(child), 0, 1))
                }
                continue
            }
            counts[frame.object] = frame.sum
            onPath[frame.object] = false
            guard var parent = stack.popLast() else { return frame.sum }
            parent.sum += frame.sum
            guard parent.sum <= limit else { return parent.sum }
            stack.append(parent)
        }
        return counts[top] ?? 0
    }

    private static func integer(_ bytes: [UInt8], at offset: Int, size: Int) -> Int {
        var value = 0
        for index in 0..<size {
            // Values past what an Int holds are read as too large, never wrapped.
            guard value < Int.max >> 8 else { return Int.max }
            value = value << 8 | Int(bytes[offset + index])
        }
        return value
    }
}
