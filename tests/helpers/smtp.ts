import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';

export interface ReceivedMail {
  from: string;
  to: string[];
  mail: ParsedMail;
}

/**
 * A real SMTP server on loopback that keeps every message it accepts, parsed. `refuseRecipient` makes it answer
 * 550 to RCPT TO for that address, as a server refusing a mailbox does.
 */
export async function startSmtpServer(opts: { refuseRecipient?: string } = {}) {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (opts.refuseRecipient && address.address === opts.refuseRecipient) {
        const error = new Error('5.1.1 Mailbox unavailable') as Error & { responseCode: number };
        error.responseCode = 550;
        return callback(error);
      }
      callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            mail,
          });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    received,
    /** Waits for a message matching `match` (mail sent in the background, e.g. a notice). */
    async waitFor(match: (m: ReceivedMail) => boolean, timeoutMs = 5000): Promise<ReceivedMail> {
      const end = Date.now() + timeoutMs;
      while (Date.now() < end) {
        const found = received.find(match);
        if (found) return found;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('no such mail received');
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A TCP server that accepts connections and never says a word: an SMTP server that hangs. */
export async function startSilentServer() {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
