import ComposableCore
import Foundation
import Glibc
import TestSupport
import Testing
import Wire

/// What a person reads when a feature's request fails, through a real daemon,
/// its network worker and a local server: a sentence that names the fix where
/// there is one, never a URLError dump; and a search page that Giphy sends
/// with a field left out still lands.
@Suite(.ownThreads) struct FailureMessageTests {
  @Test func aGIFSearchWithoutAnAPIKeyNamesTheSettingThatFixesIt() throws {
    let api = try FakeSeedAPI()
    let daemon = try DaemonProcess(
      arguments: ["--gif-api", api.gifAPIBaseURL, "--search-debounce", "0.1"],
      environment: ["STOREDAEMON_GIF_API_KEY": ""])
    let client = try daemon.client()
    _ = try client.sendAndWait(path: "search.textChanged", arguments: ["cats"], timeout: .seconds(30))
    let searches = api.requests(to: .gifSearch)
    #expect(searches.count == 1)
    #expect(searches.first?.query("api_key") ?? "" == "")
    #expect(
      try client.get(path: "/search/errorMessage").value
        == .string(
          "The GIF service needs an API key (it answered with status 401) and none is set. Set one with "
            + "--gif-api-key KEY or STOREDAEMON_GIF_API_KEY=KEY, or gif-api-key = KEY in storedaemon.conf."))
  }

  @Test func aGIFSearchWithAWrongAPIKeySaysItWasRefused() throws {
    let api = try FakeSeedAPI(gifAPIKey: "the-right-key")
    let daemon = try DaemonProcess(
      arguments: ["--gif-api", api.gifAPIBaseURL, "--gif-api-key", "a-wrong-key", "--search-debounce", "0.1"])
    let client = try daemon.client()
    _ = try client.sendAndWait(path: "search.textChanged", arguments: ["cats"], timeout: .seconds(30))
    guard case .string(let message) = try client.get(path: "/search/errorMessage").value else {
      Issue.record("the refused search shows no message")
      return
    }
    #expect(message.hasPrefix("The GIF service refused the API key (status 403). Set a valid one with --gif-api-key"))
    #expect(!message.contains("a-wrong-key"))
  }

  /// Giphy leaves `username` (and more) out of some GIFs: the page lands whole.
  @Test func aSearchPageWithAGIFWithoutAUsernameLands() throws {
    let page = #"""
      {"data": [
        {"type": "gif", "id": "with-user", "url": "https://giphy.com/gifs/with-user", "username": "ada",
         "images": {"original": {"url": "https://media.giphy.com/media/with-user/giphy.gif", "width": "480", "height": "270"}}},
        {"type": "gif", "id": "no-user", "url": "https://giphy.com/gifs/no-user",
         "images": {"original": {"url": "https://media.giphy.com/media/no-user/giphy.gif", "width": "200", "height": "100"}}}
      ], "meta": {"status": 200, "msg": "OK"}}
      """#
    let giphy = try TestHTTPServer { _ in .json(page) }
    let daemon = try DaemonProcess(
      arguments: ["--gif-api", giphy.baseURL, "--gif-api-key", "k", "--search-debounce", "0.1"])
    let client = try daemon.client()
    _ = try client.sendAndWait(path: "search.textChanged", arguments: ["cats"], timeout: .seconds(30))
    let search = try client.get(path: "/search").value
    #expect(search[path: "errorMessage"] == nil || search[path: "errorMessage"] == .null, "\(search)")
    guard case .array(let results)? = search[path: "results"] else {
      Issue.record("no results: \(search)")
      return
    }
    #expect(results.map { $0[path: "id"] } == [.string("with-user"), .string("no-user")])
  }

  /// numbersapi.com unreachable: a sentence, not libcurl's words and a
  /// URLError code.
  @Test func anUnreachableNumberFactsServiceIsASentence() throws {
    // A port that was just free: the connection is refused.
    let closed = try FakeSeedAPI()
    let url = closed.numbersAPIBaseURL
    closed.stop()
    let daemon = try DaemonProcess(arguments: ["--numbers-api", url])
    let client = try daemon.client()
    _ = try client.sendAndWait(path: "counter.numberFactButtonTapped", timeout: .seconds(30))
    #expect(
      try client.get(path: "/counter/errorMessage").value == .string("Could not connect to the number facts service."))
  }
}
