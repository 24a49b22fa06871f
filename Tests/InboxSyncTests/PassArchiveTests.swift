import Posix
import Testing

@testable import InboxSync

/// What makes a downloaded file a wallet pass: the archives of `Fixtures/` (made by
/// `Fixtures/make.py`) read by zlib's minizip, and the URL and media type rules of the download.
struct PassArchiveTests {
  static func fixture(_ name: String) -> String {
    Files.directory(of: #filePath) + "/Fixtures/" + name
  }

  @Test func aZipHoldingAPassJSONObjectIsAPass() {
    #expect(PassArchive.problem(at: Self.fixture("pass.pkpass")) == nil)
  }

  @Test(arguments: [
    ("not-a-zip.pkpass", "it is not a zip archive"),
    ("no-pass-json.zip", "the archive holds no pass.json"),
    ("pass-json-array.zip", "its pass.json is not a JSON object"),
    ("zip-bomb.zip", "its pass.json inflates to more than 1048576 bytes"),
    ("bad-crc.zip", "its pass.json is damaged (it does not inflate, or its CRC does not match)"),
    ("no-such-file", "it is not a zip archive"),
  ])
  func anythingElseIsRefusedWithItsReason(_ name: String, _ reason: String) {
    #expect(PassArchive.problem(at: Self.fixture(name)) == reason)
  }

  @Test(
    arguments: [
      ("https://passes.example.com/p.pkpass", false, nil),
      ("HTTPS://passes.example.com/p.pkpass", false, nil),
      ("http://passes.example.com/p.pkpass", false, "the pass URL uses http:; a pass is downloaded over https only"),
      ("http://127.0.0.1:8080/p", true, "the server redirected to http:; a pass is downloaded over https only"),
      ("file:///etc/passwd", false, "the pass URL uses file:; a pass is downloaded over https only"),
      ("https://user:secret@passes.example.com/p", false, "the URL must not carry credentials"),
      ("passes.example.com/p.pkpass", false, "the URL passes.example.com/p.pkpass is not an absolute URL"),
    ] as [(String, Bool, String?)])
  func onlyHTTPSIsFetched(_ url: String, _ redirected: Bool, _ refusal: String?) {
    do {
      try PassDownloader.checkSecure(url, redirected: redirected)
      #expect(refusal == nil)
    } catch {
      #expect(error.code == .insecureURL)
      #expect(error.reason == refusal)
    }
  }

  @Test(
    arguments: [
      ("application/vnd.apple.pkpass", "application/vnd.apple.pkpass"),
      ("Application/Octet-Stream; charset=binary", "application/octet-stream"),
      (" text/html ;charset=utf-8", "text/html"),
      (nil, ""),
    ] as [(String?, String)])
  func theMediaTypeIsReadWithoutItsParameters(_ header: String?, _ type: String) {
    #expect(PassDownloader.mediaType(header) == type)
  }
}
