#!/usr/bin/python3
"""A Modbus TCP peer for the edge tests, written on Debian's pymodbus (3.0.0rc1), not by us.

Reads a register map as JSON on stdin and serves it on 127.0.0.1, port 0 (a free one) unless
the map gives a port; prints {"port": N} on stdout once it listens, and serves until stdin
closes or it is killed.

The map:
  {
    "port": 0,                      optional
    "framer": "socket" | "rtu",     optional, "rtu": RTU frames over TCP (rtuOverTcp)
    "transport": "tcp" | "udp" | "serial",   optional, default tcp
    "device": "/tmp/line/b",        serial: the port to serve RTU on (one end of a socat pty pair)
    "baudrate": 19200, "parity": "E", serial: line settings (default 9600, N)
    "identity": {"VendorName": "...", "ProductCode": "...", "MajorMinorRevision": "..."},
    "silent": [7],                  unit ids the peer never answers
    "units": {
      "1": {
        "holding":  {"40000": [21365, 28243], ...},   start address: values
        "input":    {"0": [17249, 0]},
        "coils":    {"0": [true, false]},
        "discrete": {"0": [false]}
      }
    }
  }
Addresses are as on the wire (zero_mode). Registers or bits not in the map answer exception 2
(illegal data address). pymodbus's framer drops requests for unit ids it does not serve, so a
unit id in "silent", or one not in the map, is never answered.
"""
import asyncio
import json
import logging
import sys

from pymodbus.datastore import ModbusServerContext, ModbusSlaveContext, ModbusSparseDataBlock
from pymodbus.device import ModbusDeviceIdentification
from pymodbus.framer.rtu_framer import ModbusRtuFramer
from pymodbus.framer.socket_framer import ModbusSocketFramer
from pymodbus.server.async_io import ModbusSerialServer, ModbusTcpServer, ModbusUdpServer


def block(spans):
    values = {}
    for start, items in (spans or {}).items():
        for offset, value in enumerate(items):
            values[int(start) + offset] = value
    # An empty sparse block would refuse nothing; one unused address keeps it a dict block.
    return ModbusSparseDataBlock(values or {65535: 0})


async def main():
    spec = json.loads(sys.stdin.readline())
    slaves = {}
    for unit, tables in spec.get("units", {}).items():
        slaves[int(unit)] = ModbusSlaveContext(
            hr=block(tables.get("holding")),
            ir=block(tables.get("input")),
            co=block(tables.get("coils")),
            di=block(tables.get("discrete")),
            zero_mode=True,
        )
    for unit in spec.get("silent", []):
        slaves.pop(int(unit), None)
    context = ModbusServerContext(slaves=slaves, single=False)
    identity = ModbusDeviceIdentification(info_name=spec.get("identity", {}))
    framer = ModbusRtuFramer if spec.get("framer") == "rtu" else ModbusSocketFramer
    if spec.get("transport") == "serial":
        server = ModbusSerialServer(
            context,
            framer=ModbusRtuFramer,
            identity=identity,
            port=spec["device"],
            baudrate=int(spec.get("baudrate", 9600)),
            parity=spec.get("parity", "N"),
        )
        await server.start()
        print(json.dumps({"port": 0}), flush=True)
        await asyncio.get_event_loop().run_in_executor(None, sys.stdin.read)
        await server.shutdown()
        return
    address = ("127.0.0.1", int(spec.get("port", 0)))
    if spec.get("transport") == "udp":
        server = ModbusUdpServer(context, framer=framer, identity=identity, address=address)
    else:
        server = ModbusTcpServer(context, framer=framer, identity=identity, address=address, allow_reuse_address=True)
    serving = asyncio.ensure_future(server.serve_forever())
    await server.serving
    if spec.get("transport") == "udp":
        port = server.protocol.get_extra_info("sockname")[1]
    else:
        port = server.server.sockets[0].getsockname()[1]
    print(json.dumps({"port": port}), flush=True)
    # Serve until the test closes stdin (or kills us).
    loop = asyncio.get_event_loop()
    await loop.run_in_executor(None, sys.stdin.read)
    await server.server_close()
    serving.cancel()


if __name__ == "__main__":
    logging.basicConfig(level=logging.CRITICAL)
    asyncio.run(main())
