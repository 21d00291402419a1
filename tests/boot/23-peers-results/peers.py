# misbehaving peers: TCP port 1 accepts and never answers; port 2 an HTTP server that
# sends its headers and part of the body, then vanishes; UDP port 3 never answers
import socket, sys, threading, time
tp, hp, up = (int(a) for a in sys.argv[1:4])
def stall():
    s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", tp)); s.listen(64); held = []
    while True:
        c, _ = s.accept(); held.append(c)
def vanish():
    s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", hp)); s.listen(64)
    while True:
        c, _ = s.accept()
        try:
            c.recv(4096)
            c.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 4000000\r\n\r\n" + b"x" * 100000)
            time.sleep(0.5)
        except OSError:
            pass
        c.close()
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); u.bind(("127.0.0.1", up))
for f in (stall, vanish):
    threading.Thread(target=f, daemon=True).start()
while True:
    time.sleep(3600)
