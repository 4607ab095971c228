"""The reference for the throughput ratio: a bare Flask endpoint that parses the same JSON body
and answers 201, served by waitress with the same settings as `papershelf serve`."""

import sys

import waitress
from flask import Flask, request

app = Flask(__name__)


@app.post("/api/papers")
def save():
    data = request.get_json()
    return {"id": 1, "title": data.get("title")}, 201


@app.get("/api/health")
def health():
    return {"status": "ok"}


if __name__ == "__main__":
    waitress.serve(app, host="127.0.0.1", port=int(sys.argv[1]), threads=int(sys.argv[2]),
                   _quiet=True)
