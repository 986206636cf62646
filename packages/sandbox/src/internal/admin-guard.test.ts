import { describe, expect, it } from 'vitest'
import {
  adminRefusal,
  allowedAdminHosts,
  hostOfHeader,
  isHostName,
  isWildcardAddress,
} from './admin-guard.ts'

const LOOPBACK = allowedAdminHosts('127.0.0.1', '127.0.0.1', [])

describe('hostOfHeader', () => {
  it('reads a name, an IPv4 and a bracketed IPv6 address, with or without a port, in lower case', () => {
    expect(hostOfHeader('LocalHost:4010')).toBe('localhost')
    expect(hostOfHeader('127.0.0.1')).toBe('127.0.0.1')
    expect(hostOfHeader('[::1]:4010')).toBe('::1')
  })

  it('refuses what is not a Host header', () => {
    for (const header of ['', 'a b', 'user@host', 'host:port', '[::1', 'http://localhost']) {
      expect(hostOfHeader(header), header).toBeUndefined()
    }
  })
})

describe('allowedAdminHosts', () => {
  it('adds the bound address and the listening one, but never a wildcard', () => {
    expect([...allowedAdminHosts('::1', '::1', [])]).toEqual(['127.0.0.1', '::1', 'localhost'])
    expect(allowedAdminHosts('0.0.0.0', '0.0.0.0', []).has('0.0.0.0')).toBe(false)
    expect(allowedAdminHosts('sandbox.local', '192.168.1.5', []).has('192.168.1.5')).toBe(true)
  })

  it('adds allowedHosts in lower case, IPv6 ones without brackets', () => {
    const hosts = allowedAdminHosts('127.0.0.1', '127.0.0.1', ['Sandbox', '[fd00::1]'])
    expect(hosts.has('sandbox')).toBe(true)
    expect(hosts.has('fd00::1')).toBe(true)
  })
})

describe('isHostName and isWildcardAddress', () => {
  it('take names and addresses without scheme or port', () => {
    for (const host of ['sandbox', 'reviews.internal', '10.0.0.2', '::1', '[fd00::1]']) {
      expect(isHostName(host), host).toBe(true)
    }
    for (const host of ['http://sandbox', 'sandbox:4010', 'a b', '-x', '']) {
      expect(isHostName(host), host).toBe(false)
    }
  })

  it('know the wildcard addresses of both families', () => {
    expect(['0.0.0.0', '::', '[::]'].map(isWildcardAddress)).toEqual([true, true, true])
    expect(isWildcardAddress('127.0.0.1')).toBe(false)
  })
})

describe('adminRefusal', () => {
  it('lets a loopback request without Origin through, whatever its method', () => {
    for (const method of ['GET', 'DELETE']) {
      expect(adminRefusal(method, '/__sandbox/stats', { host: 'localhost:1' }, LOOPBACK)).toBeUndefined()
    }
  })

  it('checks the Host first, then the Origin, then the Content-Type', () => {
    const everythingWrong = {
      host: 'evil.example',
      origin: 'https://evil.example',
      'content-type': 'text/plain',
    }
    expect(adminRefusal('POST', '/__sandbox/reset', everythingWrong, LOOPBACK)?.field).toBe('host')
    const foreignOrigin = { ...everythingWrong, host: '127.0.0.1:4010' }
    expect(adminRefusal('POST', '/__sandbox/reset', foreignOrigin, LOOPBACK)?.field).toBe('origin')
    const plain = { host: '127.0.0.1:4010', origin: 'http://127.0.0.1:4010', 'content-type': 'text/plain' }
    expect(adminRefusal('POST', '/__sandbox/reset', plain, LOOPBACK)).toMatchObject({
      status: 415,
      field: 'content-type',
      message: 'POST /__sandbox/reset takes Content-Type: application/json, not text/plain',
    })
  })

  it('reads an Origin with the default port as the same origin', () => {
    const headers = { host: 'localhost', origin: 'http://localhost:80', 'content-type': 'application/json' }
    expect(adminRefusal('POST', '/__sandbox/reset', headers, LOOPBACK)).toBeUndefined()
  })

  it('refuses an https page of the same host and port: another origin', () => {
    const headers = { host: 'localhost:4010', origin: 'https://localhost:4010' }
    expect(adminRefusal('GET', '/__sandbox/stats', headers, LOOPBACK)?.status).toBe(403)
  })
})
