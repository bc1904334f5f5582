"""A TCP proxy that delays every chunk it forwards, as a network between a client and PostgreSQL
would: `python3 Benchmarks/delay_proxy.py <listen port> <server port> <delay in µs>`, then point
relata-bench's PostgreSQL URL at the listening port. asyncio's timers wake on whole
milliseconds, so a delay under 1 ms is about 1 ms each way: what counts is that every round trip
pays it, as on a real link.
"""
import asyncio
import sys

listen, target_port, delay = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]) / 1e6


async def pipe(reader, writer):
    loop = asyncio.get_running_loop()
    try:
        while True:
            data = await reader.read(65536)
            if not data:
                break
            loop.call_later(delay, writer.write, data)
    finally:
        await asyncio.sleep(delay)
        writer.close()


async def handle(client_reader, client_writer):
    server_reader, server_writer = await asyncio.open_connection("127.0.0.1", target_port)
    await asyncio.gather(pipe(client_reader, server_writer), pipe(server_reader, client_writer))


async def main():
    server = await asyncio.start_server(handle, "127.0.0.1", listen)
    async with server:
        await server.serve_forever()


asyncio.run(main())
