// A real SMTP server on loopback that keeps what it receives, so the browser tests can open the
// links AIR mails out. GET / lists the mails as JSON (newest last); DELETE / empties the box.
import { createServer } from 'node:http';
import { SMTPServer } from 'smtp-server';
import PostalMime from 'postal-mime';

export async function startMailbox({ smtpPort, httpPort }) {
  const mails = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, callback) {
      const chunks = [];
      stream.on('data', (chunk) => chunks.push(chunk));
      stream.on('end', () => {
        PostalMime.parse(Buffer.concat(chunks))
          .then((mail) => {
            mails.push({
              to: (mail.to ?? []).map((a) => a.address).join(', '),
              subject: mail.subject ?? '',
              text: mail.text ?? '',
              html: mail.html ?? '',
              date: new Date().toISOString(),
            });
            callback();
          })
          .catch(callback);
      });
    },
  });
  const http = createServer((req, res) => {
    if (req.method === 'DELETE') mails.length = 0;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(mails));
  });
  await new Promise((resolve) => smtp.listen(smtpPort, '127.0.0.1', resolve));
  await new Promise((resolve) => http.listen(httpPort, '127.0.0.1', resolve));
  return {
    close: () => Promise.all([new Promise((r) => smtp.close(r)), new Promise((r) => http.close(r))]),
  };
}
