// ctrlsched-truth: class=order_violation fails=signal
// ctrlsched-truth: cause * R1@34 W2@24
// server_ctor.cpp - a server whose constructor starts its worker thread first.
//
// The worker thread is the first member, so it starts in the member initializer list, and the
// handler it calls is created in the constructor body afterwards. If the worker runs first it
// calls through a null handler and crashes.
#include <cstdio>
#include <thread>

class Handler {
 public:
  virtual ~Handler() = default;
  virtual int handle(int request) = 0;
};

class EchoHandler : public Handler {
 public:
  int handle(int request) override { return request; }
};

class Server {
 public:
  Server() : worker_(&Server::run, this) { handler_ = new EchoHandler(); }
  ~Server() {
    worker_.join();
    delete handler_;
  }
  int answered() const { return answered_; }

 private:
  void run() {
    for (int request = 1; request <= 2; request++)
      answered_ += handler_->handle(request);
  }

  std::thread worker_;
  Handler* handler_ = nullptr;
  int answered_ = 0;
};

int main() {
  int answered = 0;
  {
    Server server;
    std::this_thread::yield();
    answered = server.answered();
  }
  std::printf("server stopped after %d\n", answered);
  return 0;
}
