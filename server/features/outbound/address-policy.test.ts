import { describe, expect, it } from "vitest";
import { classifyAddress, isAllowListed, parseAllowHosts } from "./address-policy.ts";

describe("classifyAddress", () => {
  const refused: [string, string][] = [
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["0.0.0.0", "unspecified"],
    ["10.0.0.1", "private"],
    ["172.16.5.4", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "linkLocal"],
    ["169.254.0.1", "linkLocal"],
    ["100.64.0.1", "carrierGradeNat"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["240.0.0.1", "reserved"],
    ["192.0.2.10", "reserved"],
    ["::1", "loopback"],
    ["[::1]", "loopback"],
    ["::", "unspecified"],
    ["fe80::1", "linkLocal"],
    ["fc00::1", "uniqueLocal"],
    ["fd12:3456::1", "uniqueLocal"],
    ["ff02::1", "multicast"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["[::ffff:169.254.169.254]", "linkLocal"],
    ["::ffff:10.1.2.3", "private"],
    ["64:ff9b::7f00:1", "loopback"],
    ["2002:7f00:1::1", "loopback"],
    ["2001:db8::1", "reserved"],
    ["not-an-ip", "invalid"],
  ];
  it.each(refused)("refuses %s (%s)", (address, range) => {
    expect(classifyAddress(address)).toEqual({ public: false, range });
  });

  const allowed = ["1.1.1.1", "8.8.8.8", "162.159.135.232", "149.154.167.220", "2606:4700:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808"];
  it.each(allowed)("allows %s", (address) => {
    expect(classifyAddress(address).public).toBe(true);
  });

  it("refuses a zoned link-local address", () => {
    expect(classifyAddress("fe80::1%eth0").public).toBe(false);
  });
});

describe("allow-list", () => {
  it("parses host and host:port entries, IPv6 in brackets", () => {
    expect(parseAllowHosts(" 127.0.0.1:8080, LocalHost ,[::1]:25,[::1]")).toEqual([
      { host: "127.0.0.1", port: 8080 },
      { host: "localhost", port: null },
      { host: "0:0:0:0:0:0:0:1", port: 25 },
      { host: "0:0:0:0:0:0:0:1", port: null },
    ]);
    expect(parseAllowHosts(undefined)).toEqual([]);
    expect(parseAllowHosts("")).toEqual([]);
  });

  it("names a bad entry", () => {
    expect(() => parseAllowHosts("ok.example,http://x")).toThrow('"http://x" is not host or host:port');
    expect(() => parseAllowHosts("host:99999")).toThrow('"host:99999"');
  });

  it("matches by host name and port, not by what the name resolves to", () => {
    const policy = { allowHosts: parseAllowHosts("127.0.0.1:8080,relay.internal") };
    expect(isAllowListed(policy, "127.0.0.1", 8080)).toBe(true);
    expect(isAllowListed(policy, "127.0.0.1", 8081)).toBe(false);
    expect(isAllowListed(policy, "localhost", 8080)).toBe(false);
    expect(isAllowListed(policy, "RELAY.internal", 443)).toBe(true);
    expect(isAllowListed(policy, "[::1]", 8080)).toBe(false);
  });
});
