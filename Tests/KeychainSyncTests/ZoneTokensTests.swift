import CloudPostgres
import CloudZones
import Testing

/// What a cloudd knows of its zones' change numbers without asking its store: numbers only grow,
/// are trusted only while every feed of other replicas' writes listens, and a read begun before
/// a feed was lost or came back is not kept.
@Suite struct ZoneTokensTests {
    let zone = ZoneID(account: "alice@example.com", view: "Passwords")

    @Test func withoutFeedsWhatItSawIsKnownAndOnlyGrows() {
        let tokens = ZoneTokens(feeds: 0)
        #expect(tokens.latest(zone) == nil, "nothing read yet")
        tokens.note(zone, 3, readIn: tokens.era)
        #expect(tokens.latest(zone) == 3)
        tokens.note(zone, 2, readIn: tokens.era)
        #expect(tokens.latest(zone) == 3, "an older read does not move it back")
        tokens.heard(zone, 5)
        #expect(tokens.latest(zone) == 5)
        #expect(tokens.latest(ZoneID(account: "bob@example.com", view: "Passwords")) == nil)
    }

    @Test func numbersAreTrustedOnlyWhileEveryFeedListens() {
        let tokens = ZoneTokens(feeds: 2)
        tokens.note(zone, 3, readIn: tokens.era)
        #expect(tokens.latest(zone) == nil, "no feed listens yet: another replica's write would go unheard")
        tokens.feedListens(0)
        tokens.heard(zone, 4)
        #expect(tokens.latest(zone) == nil, "feed 1 does not listen yet")
        tokens.feedListens(1)
        tokens.heard(zone, 4)
        #expect(tokens.latest(zone) == 4)

        let before = tokens.era
        tokens.feedLost(1)
        #expect(tokens.latest(zone) == nil, "a lost feed forgets every number")
        tokens.heard(zone, 6)
        tokens.note(zone, 6, readIn: tokens.era)
        tokens.feedListens(1)
        #expect(tokens.latest(zone) == nil, "nothing learnt while a feed was down is kept")
        tokens.note(zone, 7, readIn: before)
        #expect(tokens.latest(zone) == nil, "a read begun before the loss may predate an unheard write")
        tokens.note(zone, 8, readIn: tokens.era)
        #expect(tokens.latest(zone) == 8)
        tokens.feedListens(1)
        #expect(tokens.latest(zone) == 8, "a feed that already listens changes nothing")
    }

    @Test func notificationsCarryTheZoneAndItsNumber() {
        let heard = ZoneNotification(zone: ZoneID(account: "a/b@example.com", view: "Passwords"), latest: 42)
        #expect(heard.payload == "42:Passwords/a/b@example.com")
        #expect(ZoneNotification(payload: heard.payload) == heard)
        #expect(ZoneNotification(payload: "Passwords/alice@example.com") == ZoneNotification(zone: zone, latest: nil), "an older cloudd's")
        for nonsense in ["", "Passwords", "/alice@example.com", "Passwords/", "42:", "-1:Passwords/alice@example.com", "x:Passwords"] {
            #expect(ZoneNotification(payload: nonsense)?.latest == nil, "\(nonsense)")
        }
        #expect(ZoneNotification(payload: "Pass:words/alice@example.com")?.zone.view == "Pass:words")
    }
}
