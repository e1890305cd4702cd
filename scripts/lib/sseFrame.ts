/** One server-sent event as a client reads it. */
export interface SseFrame {
  event?: string;
  id?: string;
  data: string;
}

/** Parses one SSE block (the text between blank lines); comment lines (keepalives) are ignored. */
export function parseSseFrame(block: string): SseFrame {
  const frame: SseFrame = { data: '' };
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
    else if (line.startsWith('event:')) frame.event = line.slice(6).trim();
    else if (line.startsWith('id:')) frame.id = line.slice(3).trim();
  }
  frame.data = data.join('\n');
  return frame;
}
