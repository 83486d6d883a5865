// ctrlsched-truth: class=deadlock fails=deadlock
// ctrlsched-truth: cause g_alice,g_server lock1@41:g_alice lock2@33:g_server lock2@35:g_alice lock1@44:g_server
// ctrlsched-truth: cause g_alice,g_server lock1@33:g_server lock2@41:g_alice lock1@35:g_alice lock2@44:g_server
// Chat server core: the server keeps the list of open sessions, each session has its own lock
// for its outbox. A broadcast walks the session list; closing a session marks it closed and
// unregisters it from the server.
#include <algorithm>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

struct Session {
  std::mutex mu;  // guards open and outbox
  int id = 0;
  bool open = true;
  std::vector<std::string> outbox;
};

struct Server {
  std::mutex mu;  // guards sessions
  std::vector<Session*> sessions;
};

Server g_server;
Session g_alice;
Session g_bob;

void broadcast(const std::string& text) {
  std::lock_guard<std::mutex> registry(g_server.mu);
  for (Session* s : g_server.sessions) {
    std::lock_guard<std::mutex> session(s->mu);
    if (s->open) s->outbox.push_back(text);
  }
}

void close_session(Session* s) {
  std::lock_guard<std::mutex> session(s->mu);
  s->open = false;
  s->outbox.clear();
  std::lock_guard<std::mutex> registry(g_server.mu);
  auto& list = g_server.sessions;
  list.erase(std::remove(list.begin(), list.end(), s), list.end());
}

}  // namespace

int main() {
  g_alice.id = 1;
  g_bob.id = 2;
  g_server.sessions = {&g_alice, &g_bob};

  {
    std::jthread announcer([] {
      broadcast("server restarting in 5 minutes");
      broadcast("server restarting in 1 minute");
    });
    std::jthread disconnect([] { close_session(&g_alice); });
  }

  std::printf("bob has %zu messages, %zu sessions open\n", g_bob.outbox.size(),
              g_server.sessions.size());
  return g_bob.outbox.size() == 2 ? 0 : 1;
}
