# gdb script for Benchmarks/shape/shape.sh (see there).
# Records every call into a function of Relata's modules made on the measured function's thread
# while it runs, with the source file of the callee and of its caller.
import gdb, os, json
out = os.environ["SHAPE_OUT"]
measured = os.environ["SHAPE_FUNCTION"]
syms = [l.split() for l in open(os.environ["SHAPE_SYMBOLS"])]
state = {"on": False, "thread": None, "records": []}

def file_of(frame):
    try:
        sal = frame.find_sal()
        return sal.symtab.filename if sal and sal.symtab else None
    except Exception:
        return None

class Recorder(gdb.Breakpoint):
    def stop(self):
        if not state["on"] or gdb.selected_thread().num != state["thread"]:
            return False
        # Program counters only (files are looked up once per address at the end): the callee's
        # and up to eight callers', for the nearest caller with a source file (thunks and
        # witnesses the compiler made have none).
        frame = gdb.newest_frame()
        pcs = []
        while frame is not None and len(pcs) < 9:
            pcs.append(frame.pc())
            frame = frame.older()
        state["records"].append(pcs)
        if len(state["records"]) % 5000 == 0:
            print("recorded", len(state["records"]), flush=True)
        return False

def located(pc, cache={}):
    if pc not in cache:
        sal = gdb.find_pc_line(pc)
        block = gdb.block_for_pc(pc)
        function = block.function.name if block is not None and block.function is not None else None
        cache[pc] = (function, sal.symtab.filename if sal and sal.symtab else None)
    return cache[pc]

class End(gdb.FinishBreakpoint):
    def stop(self):
        state["on"] = False
        records = []
        for pcs in state["records"]:
            callee, callee_file = located(pcs[0])
            caller, caller_file = None, None
            for pc in pcs[1:]:
                caller, caller_file = located(pc - 1)
                if caller_file is not None:
                    break
            records.append((callee or "0x%x" % pcs[0], callee_file, caller, caller_file))
        json.dump(records, open(out, "w"))
        return False
    def out_of_scope(self):
        pass

class Start(gdb.Breakpoint):
    def stop(self):
        if state["thread"] is not None:
            return False
        state["thread"] = gdb.selected_thread().num
        base = self.base
        for address, name in syms:
            Recorder("*0x%x" % (base + int(address, 16)), internal=True)
        state["on"] = True
        End(gdb.newest_frame(), internal=True)
        return False

gdb.execute("set language c")
gdb.execute("starti", to_string=True)
offset = [int(a, 16) for a, n in syms if n == measured][0]
# The program is mapped: the measured function's address gives the load base.
relocated = int(gdb.parse_and_eval("(long)&'%s'" % measured))
start = Start("*0x%x" % relocated, internal=True)
start.base = relocated - offset
gdb.execute("continue")
