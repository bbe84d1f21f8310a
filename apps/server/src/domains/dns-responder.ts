// Test support: a tiny DNS server over UDP on 127.0.0.1 answering A and TXT questions from a
// table the test changes as it goes (what a domain owner publishes). Enough of RFC 1035 for one
// question per query; anything else answers NXDOMAIN.
import { createSocket } from 'node:dgram'

export interface DnsRecords {
  /** TXT records by name (lower case): each record one string. */
  txt: Map<string, string[]>
  /** IPv4 addresses by name. */
  a: Map<string, string>
}

export interface DnsResponder {
  records: DnsRecords
  /** `127.0.0.1:port`, for `DOMAIN_DNS_SERVERS`. */
  address: string
  /** Questions asked so far (name and type), oldest first. */
  asked: { name: string; type: number }[]
  close(): Promise<void>
}

const TYPE_A = 1
const TYPE_TXT = 16

function readName(message: Buffer, start: number): { name: string; end: number } {
  const labels: string[] = []
  let offset = start
  for (;;) {
    const length = message[offset] ?? 0
    offset += 1
    if (length === 0) break
    labels.push(message.subarray(offset, offset + length).toString('ascii'))
    offset += length
  }
  return { name: labels.join('.').toLowerCase(), end: offset }
}

function answer(type: number, rdata: Buffer): Buffer {
  const head = Buffer.alloc(12)
  head.writeUInt16BE(0xc00c, 0) // the question's name
  head.writeUInt16BE(type, 2)
  head.writeUInt16BE(1, 4) // IN
  head.writeUInt32BE(5, 6) // TTL
  head.writeUInt16BE(rdata.length, 10)
  return Buffer.concat([head, rdata])
}

function txtData(text: string): Buffer {
  const bytes = Buffer.from(text)
  const chunks: Buffer[] = []
  for (let at = 0; at < bytes.length || at === 0; at += 255) {
    const part = bytes.subarray(at, at + 255)
    chunks.push(Buffer.from([part.length]), part)
    if (bytes.length === 0) break
  }
  return Buffer.concat(chunks)
}

/** Starts the responder on a free UDP port of 127.0.0.1. */
export async function startDnsResponder(): Promise<DnsResponder> {
  const records: DnsRecords = { txt: new Map(), a: new Map() }
  const asked: { name: string; type: number }[] = []
  const socket = createSocket('udp4')
  socket.on('message', (query, peer) => {
    if (query.length < 12) return
    const { name, end } = readName(query, 12)
    const type = query.readUInt16BE(end)
    asked.push({ name, type })
    const question = query.subarray(12, end + 4)
    const answers: Buffer[] = []
    if (type === TYPE_TXT) {
      for (const text of records.txt.get(name) ?? []) answers.push(answer(TYPE_TXT, txtData(text)))
    } else if (type === TYPE_A) {
      const address = records.a.get(name)
      if (address !== undefined) {
        answers.push(answer(TYPE_A, Buffer.from(address.split('.').map(Number))))
      }
    }
    const known = records.txt.has(name) || records.a.has(name)
    const header = Buffer.alloc(12)
    header.writeUInt16BE(query.readUInt16BE(0), 0)
    // Response, recursion desired and available; NXDOMAIN for a name with no record at all.
    header.writeUInt16BE(known ? 0x8180 : 0x8183, 2)
    header.writeUInt16BE(1, 4)
    header.writeUInt16BE(answers.length, 6)
    socket.send(Buffer.concat([header, question, ...answers]), peer.port, peer.address)
  })
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve))
  const { port } = socket.address()
  return {
    records,
    address: `127.0.0.1:${port}`,
    asked,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  }
}
