//! A TCP relay in front of the test cluster, to take the database away as a stopped server or a
//! network cut does, while the bot's pool keeps the relay's address.

use std::io::{Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering::SeqCst};
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub struct Relay {
    pub port: u16,
    down: Arc<AtomicBool>,
}

impl Relay {
    /// A relay on a port of its own that forwards every connection to `target`.
    pub fn start(target: SocketAddr) -> Relay {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        listener.set_nonblocking(true).unwrap();
        let down = Arc::new(AtomicBool::new(false));
        let sockets: Arc<Mutex<Vec<TcpStream>>> = Arc::default();
        let relay_down = down.clone();
        std::thread::spawn(move || {
            let mut listener = Some(listener);
            loop {
                if relay_down.load(SeqCst) {
                    // Down: every connection reset, and new ones refused (the port is closed).
                    if listener.take().is_some() {
                        for socket in sockets.lock().unwrap().drain(..) {
                            let _ = socket.shutdown(Shutdown::Both);
                        }
                    }
                } else if listener.is_none() {
                    listener = TcpListener::bind(("127.0.0.1", port)).ok();
                    if let Some(listener) = &listener {
                        listener.set_nonblocking(true).unwrap();
                    }
                }
                if let Some(Ok((client, _))) = listener.as_ref().map(TcpListener::accept) {
                    client.set_nonblocking(false).unwrap();
                    let server = TcpStream::connect(target).unwrap();
                    sockets.lock().unwrap().extend([client.try_clone().unwrap(), server.try_clone().unwrap()]);
                    pipe(client.try_clone().unwrap(), server.try_clone().unwrap());
                    pipe(server, client);
                    continue;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        });
        Relay { port, down }
    }

    /// Takes the server away (`true`: connections reset, new ones refused) or brings it back.
    pub fn set_down(&self, down: bool) {
        self.down.store(down, SeqCst);
    }
}

/// Copies `from` into `to` until either ends.
fn pipe(mut from: TcpStream, mut to: TcpStream) {
    std::thread::spawn(move || {
        let mut buffer = [0u8; 16384];
        loop {
            let n = match from.read(&mut buffer) {
                Ok(0) | Err(_) => break,
                Ok(n) => n,
            };
            if to.write_all(&buffer[..n]).is_err() {
                break;
            }
        }
        let _ = to.shutdown(Shutdown::Write);
    });
}
