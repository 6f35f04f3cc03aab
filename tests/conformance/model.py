#!/usr/bin/env python3
"""A scripted model for the conformance suite, on 127.0.0.1 only.

usage: model.py PORT_FILE LOG_FILE COMMAND

It answers the first request of a turn by asking for one call of the shell
tool the harness offers, running COMMAND, and every later request with the
text "done" (COMMAND may hold several commands, separated by the ASCII
record separator: each is asked for in turn, once the one before has its
result). It speaks just enough of each wire protocol the harnesses use
for that:

  POST …/v1/messages                     Anthropic Messages (Claude Code)
  POST …/v1/responses                    OpenAI Responses (Codex CLI; Factory
                                         Droid, through Factory's API path)
  POST …/v1/chat/completions             OpenAI Chat Completions (Copilot CLI,
                                         Kimi Code CLI, OpenCode, Letta Code,
                                         Mistral Vibe, OpenHands, Cline)
  POST …/models/M:streamGenerateContent  Gemini (Gemini CLI)
  POST /chat-stream                      Augment's own API (Auggie), with
                                         its /get-models, whose feature
                                         flags turn Auggie's hooks on
                                         (SCRIPTED_AUGMENT_HOOKS=0: off) and
                                         let its settings override them
                                         (SCRIPTED_AUGMENT_OVERRIDES=1)

each streamed (server-sent events) when the request asks for it. Any other
POST is answered `{}`, and any other GET with a list of one model: enough of
a vendor's own service for a harness that will not start without one (Factory
Droid's account, session and settings calls).

For every request it appends one JSON line to LOG_FILE: the protocol, the
tools offered, the call it asked for, and the text of any tool result the
harness sent back. The suite reads that log to learn what the harness told
the model, which is where a hook's refusal ends up. The port it listens on
goes into PORT_FILE once it is ready.
"""

import json
import os
import sys
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PORT_FILE, LOG_FILE, COMMANDS = sys.argv[1:4]
COMMANDS = COMMANDS.split("\x1e")

# The harnesses' names for "run a shell command", most specific first.
SHELL_TOOLS = (
    "Bash",
    "bash",
    "run_shell_command",
    "shell",
    "shell_command",
    "exec_command",
    "Shell",
    "terminal",
    "run_commands",
    "Execute",
    "launch-process",
)

log_lock = threading.Lock()


def record(entry):
    with log_lock, open(LOG_FILE, "a", encoding="utf-8") as log:
        log.write(json.dumps(entry) + "\n")


def new_id(prefix):
    return f"{prefix}_{uuid.uuid4().hex[:12]}"


def arguments(schema, command):
    """Arguments for a shell tool running command, filled from its JSON schema."""
    schema = schema or {}
    properties = schema.get("properties") or {}
    args = {}
    for name in schema.get("required") or list(properties):
        spec = properties.get(name) or {}
        kind = spec.get("type")
        if isinstance(kind, list):
            kind = next((k for k in kind if k != "null"), "string")
        if name in ("command", "cmd"):
            args[name] = ["bash", "-c", command] if kind == "array" else command
        elif name == "commands" and kind == "array":
            args[name] = [command]
        elif kind == "string" and "enum" in spec:
            args[name] = spec["enum"][0]
        elif kind == "string":
            args[name] = "conformance check"
        elif kind in ("integer", "number"):
            args[name] = 60000 if "timeout" in name else 1
        elif kind == "boolean":
            args[name] = False
        elif kind == "array":
            args[name] = []
        elif kind == "object":
            args[name] = {}
    for name in ("command", "cmd"):
        if name in properties and name not in args:
            args[name] = command
    return args


def shell_call(tools, command):
    """(name, arguments) for the shell tool among `tools` {name: schema}."""
    for name in SHELL_TOOLS:
        if name in tools:
            return name, arguments(tools[name], command)
    return None


def text_of(content):
    """The text in a tool result, whatever shape the protocol gives it."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(text_of(part) for part in content)
    if isinstance(content, dict):
        for key in ("text", "output", "content", "error"):
            if key in content:
                return text_of(content[key])
    return json.dumps(content)


class Model(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *_):
        pass

    def send_json(self, body):
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def send_events(self, events):
        """events: (name or None, JSON-able data or the literal "[DONE]")."""
        chunks = []
        for name, data in events:
            head = f"event: {name}\n" if name else ""
            body = data if isinstance(data, str) else json.dumps(data)
            chunks.append(f"{head}data: {body}\n\n")
        data = "".join(chunks).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path.startswith("/props"):
            # llama.cpp's server settings (Letta Code asks for the context size).
            return self.send_json({"default_generation_settings": {"n_ctx": 32768}})
        # Model listings (OpenCode, Copilot, Kimi ask before a turn).
        model = {"id": "scripted", "object": "model", "created": 0, "owned_by": "hookc"}
        self.send_json({"object": "list", "data": [model], "models": [model]})

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        try:
            request = json.loads(self.rfile.read(length) or b"{}")
        except ValueError:
            request = {}
        path = self.path.split("?")[0]
        if path == "/get-models":
            flags = {
                "enable_hooks": os.environ.get("SCRIPTED_AUGMENT_HOOKS", "1") != "0",
                "allow_client_feature_flag_overrides": os.environ.get("SCRIPTED_AUGMENT_OVERRIDES") == "1",
            }
            model = {"name": "scripted", "suggested_prefix_char_count": 0, "suggested_suffix_char_count": 0}
            return self.send_json({"default_model": "scripted", "models": [model], "feature_flags": flags})
        if path == "/agents/list-remote-tools":
            return self.send_json({"tools": []})
        if path == "/chat-stream":
            protocol = "augment"
        elif path.endswith("/messages"):
            protocol = "anthropic"
        elif path.endswith("/responses"):
            protocol = "responses"
        elif path.endswith("/chat/completions"):
            protocol = "chat"
        elif path.endswith((":generateContent", ":streamGenerateContent")):
            protocol = "gemini"
        elif "count_tokens" in path or "countTokens" in path:
            record({"path": path, "protocol": "count-tokens"})
            return self.send_json({"input_tokens": 1, "totalTokens": 1})
        else:
            record({"path": path, "protocol": "unknown"})
            return self.send_json({})
        tools, results = getattr(self, "parse_" + protocol)(request)
        call = shell_call(tools, COMMANDS[len(results)]) if len(results) < len(COMMANDS) else None
        record(
            {
                "path": path,
                "protocol": protocol,
                "tools": sorted(str(name) for name in tools),
                "asked": {"tool": call[0], "arguments": call[1]} if call else None,
                "tool_results": results,
            }
        )
        getattr(self, "answer_" + protocol)(request, call)

    # Anthropic Messages -------------------------------------------------

    def answer_anthropic(self, request, call):
        if call:
            block = {"type": "tool_use", "id": new_id("toolu"), "name": call[0], "input": call[1]}
            start = dict(block, input={})
            delta = {"type": "input_json_delta", "partial_json": json.dumps(call[1])}
            stop = "tool_use"
        else:
            block = {"type": "text", "text": "done"}
            start = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": "done"}
            stop = "end_turn"
        message = {
            "id": new_id("msg"),
            "type": "message",
            "role": "assistant",
            "model": request.get("model", "scripted"),
            "content": [block],
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": {"input_tokens": 1, "output_tokens": 1},
        }
        if not request.get("stream"):
            return self.send_json(message)
        opening = dict(message, content=[], stop_reason=None)
        self.send_events(
            [
                ("message_start", {"type": "message_start", "message": opening}),
                ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": start}),
                ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
                ("content_block_stop", {"type": "content_block_stop", "index": 0}),
                (
                    "message_delta",
                    {
                        "type": "message_delta",
                        "delta": {"stop_reason": stop, "stop_sequence": None},
                        "usage": {"output_tokens": 1},
                    },
                ),
                ("message_stop", {"type": "message_stop"}),
            ]
        )

    @staticmethod
    def parse_anthropic(request):
        tools = {t.get("name"): t.get("input_schema") for t in request.get("tools") or []}
        results = [
            text_of(block.get("content"))
            for message in request.get("messages") or []
            if isinstance(message.get("content"), list)
            for block in message["content"]
            if isinstance(block, dict) and block.get("type") == "tool_result"
        ]
        return tools, results


    # OpenAI Responses ---------------------------------------------------

    def answer_responses(self, request, call):
        if call:
            item = {
                "type": "function_call",
                "id": new_id("fc"),
                "call_id": new_id("call"),
                "name": call[0],
                "arguments": json.dumps(call[1]),
                "status": "completed",
            }
        else:
            item = {
                "type": "message",
                "id": new_id("msg"),
                "role": "assistant",
                "status": "completed",
                "content": [{"type": "output_text", "text": "done", "annotations": []}],
            }
        response = {
            "id": new_id("resp"),
            "object": "response",
            "created_at": 0,
            "status": "completed",
            "model": request.get("model", "scripted"),
            "output": [item],
            "usage": {
                "input_tokens": 1,
                "input_tokens_details": {"cached_tokens": 0},
                "output_tokens": 1,
                "output_tokens_details": {"reasoning_tokens": 0},
                "total_tokens": 2,
            },
        }
        if not request.get("stream"):
            return self.send_json(response)
        # The whole event sequence, as OpenAI streams it: some clients build
        # the call from the deltas (Factory Droid), others from the done item.
        events = [
            {"type": "response.created", "response": dict(response, status="in_progress", output=[])},
            {"type": "response.output_item.added", "output_index": 0,
             "item": dict(item, status="in_progress", **({"arguments": ""} if call else {"content": []}))},
        ]
        if call:
            events += [
                {"type": "response.function_call_arguments.delta", "output_index": 0,
                 "item_id": item["id"], "delta": item["arguments"]},
                {"type": "response.function_call_arguments.done", "output_index": 0,
                 "item_id": item["id"], "arguments": item["arguments"]},
            ]
        else:
            part = item["content"][0]
            where = {"output_index": 0, "item_id": item["id"], "content_index": 0}
            events += [
                dict(where, type="response.content_part.added", part=dict(part, text="")),
                dict(where, type="response.output_text.delta", delta=part["text"]),
                dict(where, type="response.output_text.done", text=part["text"]),
                dict(where, type="response.content_part.done", part=part),
            ]
        events += [
            {"type": "response.output_item.done", "output_index": 0, "item": item},
            {"type": "response.completed", "response": response},
        ]
        self.send_events(
            [(e["type"], dict(e, sequence_number=n)) for n, e in enumerate(events)]
        )

    @staticmethod
    def parse_responses(request):
        tools = {
            t.get("name"): t.get("parameters")
            for t in request.get("tools") or []
            if t.get("type") == "function"
        }
        items = request.get("input")
        results = [
            text_of(item.get("output"))
            for item in (items if isinstance(items, list) else [])
            if isinstance(item, dict) and str(item.get("type", "")).endswith("call_output")
        ]
        return tools, results


    # Augment's chat stream -----------------------------------------------

    @staticmethod
    def parse_augment(request):
        tools = {}
        for tool in request.get("tool_definitions") or []:
            try:
                tools[tool.get("name")] = json.loads(tool.get("input_schema_json") or "{}")
            except ValueError:
                tools[tool.get("name")] = {}
        results = [
            text_of(node["tool_result_node"].get("content"))
            for node in request.get("nodes") or []
            if isinstance(node, dict) and isinstance(node.get("tool_result_node"), dict)
        ]
        return tools, results

    def answer_augment(self, request, call):
        if call:
            name, args = call
            # Wait for the process, so that its end is the tool's result, in
            # the folder Auggie runs in (`cwd` is the schema's filler).
            args = dict(args, wait=True, max_wait_seconds=60) if "wait" in args else args
            args.pop("cwd", None)
            use = {"tool_use_id": new_id("toolu"), "tool_name": name, "input_json": json.dumps(args)}
            chunk = {"text": "", "nodes": [{"id": 1, "type": 5, "content": "", "tool_use": use}], "stop_reason": 3}
        else:
            chunk = {"text": "done", "nodes": [], "stop_reason": 1}
        data = (json.dumps(chunk) + "\n").encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    # OpenAI Chat Completions --------------------------------------------

    def answer_chat(self, request, call):
        if call:
            tool_call = {
                "id": new_id("call"),
                "type": "function",
                "function": {"name": call[0], "arguments": json.dumps(call[1])},
            }
            message = {"role": "assistant", "content": None, "tool_calls": [tool_call]}
            delta = {"role": "assistant", "content": None, "tool_calls": [dict(tool_call, index=0)]}
            finish = "tool_calls"
        else:
            message = delta = {"role": "assistant", "content": "done"}
            finish = "stop"
        head = {"id": new_id("chatcmpl"), "created": 0, "model": request.get("model", "scripted")}
        usage = {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
        if not request.get("stream"):
            choice = {"index": 0, "message": message, "finish_reason": finish}
            return self.send_json(dict(head, object="chat.completion", choices=[choice], usage=usage))
        chunk = dict(head, object="chat.completion.chunk")
        self.send_events(
            [
                (None, dict(chunk, choices=[{"index": 0, "delta": delta, "finish_reason": None}])),
                (None, dict(chunk, choices=[{"index": 0, "delta": {}, "finish_reason": finish}])),
                (None, dict(chunk, choices=[], usage=usage)),
                (None, "[DONE]"),
            ]
        )

    @staticmethod
    def parse_chat(request):
        tools = {
            (t.get("function") or {}).get("name"): (t.get("function") or {}).get("parameters")
            for t in request.get("tools") or []
        }
        results = [
            text_of(message.get("content"))
            for message in request.get("messages") or []
            if message.get("role") == "tool"
        ]
        return tools, results


    # Gemini -------------------------------------------------------------

    def answer_gemini(self, request, call):
        if call:
            parts = [{"functionCall": {"name": call[0], "args": call[1]}}]
        else:
            parts = [{"text": "done"}]
        response = {
            "candidates": [{"index": 0, "content": {"role": "model", "parts": parts}, "finishReason": "STOP"}],
            "usageMetadata": {"promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2},
        }
        if "streamGenerateContent" in self.path:
            return self.send_events([(None, response)])
        self.send_json(response)

    @staticmethod
    def parse_gemini(request):
        tools = {
            declaration.get("name"): declaration.get("parametersJsonSchema") or declaration.get("parameters")
            for tool in request.get("tools") or []
            for declaration in tool.get("functionDeclarations") or []
        }
        results = [
            text_of(part["functionResponse"].get("response"))
            for content in request.get("contents") or []
            for part in content.get("parts") or []
            if isinstance(part, dict) and "functionResponse" in part
        ]
        return tools, results



def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Model)
    with open(PORT_FILE + ".tmp", "w", encoding="utf-8") as port:
        port.write(str(server.server_address[1]))
    # Renamed into place, so the suite never reads half a port number.
    os.replace(PORT_FILE + ".tmp", PORT_FILE)
    server.serve_forever()


if __name__ == "__main__":
    main()
