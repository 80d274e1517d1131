// A small HTTP server on one address (cpp-httplib, Debian's libcpp-httplib-dev,
// behind this header): GET routes only, each answering from memory. Any other
// path or method gets 404 or 405; nothing is served from the file system.
#pragma once

#include <functional>
#include <memory>
#include <string>

namespace plume {

struct HttpReply {
    int status = 200;
    std::string contentType = "text/plain; charset=utf-8";
    std::string body;
};

class HttpServer {
  public:
    HttpServer();
    ~HttpServer();
    HttpServer(const HttpServer&) = delete;
    HttpServer& operator=(const HttpServer&) = delete;

    // `pattern` is a regular expression over the whole path; the handler
    // gets its first capture group ("" when it has none).
    void get(const std::string& pattern, std::function<HttpReply(const std::string&)> handler);
    // Binds to `address` and `port` (0: a free port); returns the port, or
    // throws RunError when it cannot bind.
    int bind(const std::string& address, int port);
    // Serves until stop() (from any thread).
    void serve();
    void stop();

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace plume
