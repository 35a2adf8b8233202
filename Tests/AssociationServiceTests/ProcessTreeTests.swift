import Foundation
import Testing

@testable import ServiceSupport

/// A PostgreSQL server is a tree of processes: what is measured or limited of it is the tree.
@Suite struct ProcessTreeTests {
    @Test func theParentIsReadAfterTheCommandsLastParenthesis() {
        #expect(ProcessTree.parent(inStat: "4242 (postgres) S 4200 4242 4242 0 -1") == 4200)
        // A command may hold spaces and parentheses of its own.
        #expect(ProcessTree.parent(inStat: "77 (a b) (c)) R 12 77 77 0 -1") == 12)
        #expect(ProcessTree.parent(inStat: "garbage") == nil)
        #expect(ProcessTree.parent(inStat: "5 (x)") == nil)
    }

    @Test func aTreeIsItsRootsAndTheirDescendantsOnly() {
        // 10 → 11 → 12, 10 → 13; 20 → 21 is another tree; 1 is init.
        let parents: [Int32: Int32] = [10: 1, 11: 10, 12: 11, 13: 10, 20: 1, 21: 20]
        #expect(ProcessTree.members(of: [10], parents: parents) == [10, 11, 12, 13])
        #expect(ProcessTree.members(of: [11, 21], parents: parents) == [11, 12, 21])
        #expect(ProcessTree.members(of: [99], parents: parents).isEmpty)
    }

    @Test func thisProcessIsInItsOwnTree() {
        #expect(ProcessTree.members(of: [getpid()]).contains(getpid()))
    }
}
