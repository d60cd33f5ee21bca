import CCurl

/// Owns one libcurl easy handle and frees it with `curl_easy_cleanup`.
///
/// Confined to the multi loop's thread once handed to it. The typed `set` overloads call
/// the shims in `CCurl/shim.h`, since Swift cannot call the variadic `curl_easy_setopt`.
final class CurlEasyHandle {
  let raw: UnsafeMutableRawPointer
  /// Header lists the handle points into; kept alive as long as the handle.
  private var lists: [UnsafeMutablePointer<curl_slist>] = []
  /// The first `curl_easy_setopt` that failed, reported when the transfer is added.
  private(set) var setupError: (option: CURLoption, code: CURLcode)?

  /// Creates a handle; nil when libcurl is out of memory.
  init?() {
    guard let raw = curl_easy_init() else { return nil }
    self.raw = raw
  }

  deinit {
    curl_easy_cleanup(raw)
    for list in lists { curl_slist_free_all(list) }
  }

  /// Makes the handle as good as new for the next transfer: every option back to its default
  /// (`curl_easy_reset`, which keeps the buffers curl allocated for it), header lists freed.
  func reset() {
    curl_easy_reset(raw)
    for list in lists { curl_slist_free_all(list) }
    lists = []
    setupError = nil
  }

  func set(_ option: CURLoption, _ value: Int) {
    record(option, thumbify_easy_setopt_long(raw, option, value))
  }

  func set(_ option: CURLoption, _ value: String) {
    record(option, thumbify_easy_setopt_string(raw, option, value))
  }

  func set(_ option: CURLoption, pointer: UnsafeMutableRawPointer?) {
    record(option, thumbify_easy_setopt_pointer(raw, option, pointer))
  }

  /// Sets a `curl_slist` option (headers, `CURLOPT_RESOLVE`) from Swift strings.
  func set(_ option: CURLoption, list strings: [String]) {
    guard !strings.isEmpty else { return }
    var list: UnsafeMutablePointer<curl_slist>?
    for string in strings {
      guard let appended = curl_slist_append(list, string) else {
        record(option, CURLE_OUT_OF_MEMORY)
        return
      }
      list = appended
    }
    if let list { lists.append(list) }
    record(option, thumbify_easy_setopt_slist(raw, option, list))
  }

  func setWriteCallback(
    _ callback:
      @escaping @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int
  ) {
    record(CURLOPT_WRITEFUNCTION, thumbify_easy_setopt_write_callback(raw, callback))
  }

  func setHeaderCallback(
    _ callback:
      @escaping @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int
  ) {
    record(CURLOPT_HEADERFUNCTION, thumbify_easy_setopt_header_callback(raw, callback))
  }

  func setOpenSocketCallback(
    _ callback:
      @escaping @convention(c) (UnsafeMutableRawPointer?, curlsocktype, UnsafeMutablePointer<curl_sockaddr>?)
      -> curl_socket_t
  ) {
    record(CURLOPT_OPENSOCKETFUNCTION, thumbify_easy_setopt_opensocket_callback(raw, callback))
  }

  /// A `CURLINFO_LONG` value, or nil when curl has none.
  func info(long info: CURLINFO) -> Int? {
    var value = 0
    return thumbify_easy_getinfo_long(raw, info, &value) == CURLE_OK ? value : nil
  }

  /// A `CURLINFO_STRING` value copied into Swift, or nil.
  func info(string info: CURLINFO) -> String? {
    var value: UnsafeMutablePointer<CChar>?
    guard thumbify_easy_getinfo_string(raw, info, &value) == CURLE_OK, let value else { return nil }
    return String(cString: value)
  }

  /// A `CURLINFO_DOUBLE` value, or nil.
  func info(double info: CURLINFO) -> Double? {
    var value = 0.0
    return thumbify_easy_getinfo_double(raw, info, &value) == CURLE_OK ? value : nil
  }

  private func record(_ option: CURLoption, _ code: CURLcode) {
    if code != CURLE_OK && setupError == nil { setupError = (option, code) }
  }
}
