#include "preview/http_server.h"

#include <httplib.h>

#include "core/error.h"

namespace plume {

struct HttpServer::Impl {
    httplib::Server server;
};

HttpServer::HttpServer() : impl_(std::make_unique<Impl>()) {
    // Only the routes given: no mount points, no directory listing.
    impl_->server.set_keep_alive_max_count(100);
    impl_->server.set_error_handler([](const httplib::Request&, httplib::Response& res) {
        if (res.body.empty()) res.set_content("not found\n", "text/plain; charset=utf-8");
    });
}

HttpServer::~HttpServer() { stop(); }

void HttpServer::get(const std::string& pattern,
                     std::function<HttpReply(const std::string&)> handler) {
    impl_->server.Get(pattern, [handler](const httplib::Request& req, httplib::Response& res) {
        const HttpReply reply = handler(req.matches.size() > 1 ? req.matches[1].str() : "");
        res.status = reply.status;
        res.set_header("Cache-Control", "no-store");
        res.set_content(reply.body, reply.contentType.c_str());
    });
}

int HttpServer::bind(const std::string& address, int port) {
    const int bound = port == 0 ? impl_->server.bind_to_any_port(address.c_str())
                                : (impl_->server.bind_to_port(address.c_str(), port) ? port : -1);
    if (bound <= 0)
        throw RunError("cannot listen on " + address + ":" + std::to_string(port) +
                       " (in use, or not an address of this machine)");
    return bound;
}

void HttpServer::serve() { impl_->server.listen_after_bind(); }

void HttpServer::stop() {
    if (impl_->server.is_running()) impl_->server.stop();
}

}  // namespace plume
