/**
 * Voice chat's mesh (./mesh.ts) with fake peer connections and a fake relay that routes the
 * signalling as the server does (docs/contract.md §6.4): JOIN and LEAVE to the other connections in
 * the call with `from`, OFFER, ANSWER and ICE_CANDIDATE to the one connection in `to`.
 */
import { decodeMessage, encodeMessage, MessageType, type Message } from '@/lib/contract/message';
import { MAX_VOICE_PEERS, VIDEO_STALE_MS, VoiceMesh, voiceFailureOf, type VoiceEnvironment, type VoiceFrameType, type VoiceSignal, type VoiceState } from './mesh';

class FakeTrack {
  readonly kind = 'audio';
  enabled = true;
  stopped = false;
  stop() {
    this.stopped = true;
  }
}

class FakeVideoTrack {
  readonly kind = 'video';
  enabled = true;
  muted = false;
  readyState = 'live';
  stopped = false;
  onmute: (() => void) | null = null;
  onunmute: (() => void) | null = null;
  onended: (() => void) | null = null;
  stop() {
    this.stopped = true;
    this.readyState = 'ended';
  }
}

class FakeCameraStream {
  readonly tracks = [new FakeVideoTrack()];
  getTracks() {
    return this.tracks;
  }
  getVideoTracks() {
    return this.tracks;
  }
  getAudioTracks() {
    return [];
  }
}

interface FakeTransceiver {
  receiver: { track: { kind: string } };
  sender: { track: unknown; replaceTrack(track: unknown): Promise<void> };
  direction: string;
}

class FakeStream {
  readonly tracks = [new FakeTrack()];
  getTracks() {
    return this.tracks;
  }
  getAudioTracks() {
    return this.tracks;
  }
}

let candidateSeq = 0;
/** The meshes' clock (ms). */
let clock = 1_000_000;

// jsdom has no MediaStream; the mesh wraps a track that came without a stream in one.
class StubMediaStream {
  constructor(readonly tracks: unknown[] = []) {}
}
(globalThis as { MediaStream?: unknown }).MediaStream ??= StubMediaStream;

class FakePeerConnection {
  localDescription: RTCSessionDescriptionInit | null = null;
  remoteDescription: RTCSessionDescriptionInit | null = null;
  connectionState: RTCPeerConnectionState = 'new';
  readonly added: RTCIceCandidateInit[] = [];
  readonly tracks: unknown[] = [];
  readonly senders: { track: unknown; replaceTrack(track: unknown): Promise<void> }[] = [];
  readonly transceivers: FakeTransceiver[] = [];
  /** The remote camera track this side received. */
  remoteVideo: FakeVideoTrack | null = null;
  closed = false;
  inboundLevel = 0;
  framesDecoded = 0;
  onicecandidate: ((event: { candidate: { toJSON(): RTCIceCandidateInit } | null }) => void) | null = null;
  ontrack: ((event: { streams: unknown[]; track: unknown }) => void) | null = null;
  onconnectionstatechange: (() => void) | null = null;

  constructor(readonly owner: string) {}

  addTrack(track: unknown) {
    this.tracks.push(track);
    const sender = {
      track,
      replaceTrack: async (next: unknown) => {
        sender.track = next;
      },
    };
    this.senders.push(sender);
  }
  getSenders() {
    return this.senders;
  }
  addTransceiver(kind: string, init: { direction: string }) {
    const transceiver: FakeTransceiver = {
      receiver: { track: { kind } },
      sender: {
        track: null,
        replaceTrack: async (next: unknown) => {
          transceiver.sender.track = next;
        },
      },
      direction: init.direction,
    };
    this.transceivers.push(transceiver);
    return transceiver;
  }
  getTransceivers() {
    return this.transceivers;
  }
  async createOffer() {
    return { type: 'offer' as const, sdp: `offer from ${this.owner}${this.transceivers.length > 0 ? ' m=video' : ''}` };
  }
  async createAnswer() {
    return { type: 'answer' as const, sdp: `answer from ${this.owner}` };
  }
  async setLocalDescription(description: RTCSessionDescriptionInit) {
    this.localDescription = description;
    const candidate = { candidate: `candidate:${++candidateSeq} ${this.owner}`, sdpMid: '0', sdpMLineIndex: 0 };
    queueMicrotask(() => this.onicecandidate?.({ candidate: { toJSON: () => candidate } }));
    this.settle();
  }
  async setRemoteDescription(description: RTCSessionDescriptionInit) {
    this.remoteDescription = description;
    this.ontrack?.({ streams: [new FakeStream()], track: new FakeTrack() });
    // An offered video section: the browser makes a transceiver for it (recvonly until told otherwise).
    if (description.type === 'offer' && description.sdp?.includes('m=video') && this.transceivers.length === 0) this.addTransceiver('video', { direction: 'recvonly' });
    if (description.sdp?.includes('m=video') || this.transceivers.length > 0) {
      this.remoteVideo = new FakeVideoTrack();
      this.ontrack?.({ streams: [], track: this.remoteVideo });
    }
    this.settle();
  }
  async addIceCandidate(candidate: RTCIceCandidateInit) {
    if (!this.remoteDescription) throw new Error('no remote description');
    this.added.push(candidate);
  }
  async getStats() {
    return new Map<string, object>([
      ['in', { type: 'inbound-rtp', kind: 'audio', audioLevel: this.inboundLevel }],
      ['video', { type: 'inbound-rtp', kind: 'video', framesDecoded: this.framesDecoded }],
    ]);
  }
  close() {
    this.closed = true;
    this.connectionState = 'closed';
  }
  private settle() {
    if (this.localDescription && this.remoteDescription && this.connectionState === 'new') {
      this.connectionState = 'connected';
      this.onconnectionstatechange?.();
    }
  }
}

interface Person {
  name: string;
  connId: string;
  mesh: VoiceMesh;
  state: VoiceState;
  inCall: boolean;
  connections: FakePeerConnection[];
  players: { stopped: boolean; volume: number; sinkId: string }[];
  streams: FakeStream[];
  constraints: MediaStreamConstraints[];
  socketOpen: boolean;
}

/** The server's relay for the people in one room. */
class Relay {
  readonly people: Person[] = [];
  readonly log: string[] = [];

  add(name: string, environment: Partial<VoiceEnvironment> = {}): Person {
    const person = { name, connId: `${name}-id:c1`, inCall: false, connections: [], players: [], streams: [], constraints: [], socketOpen: true } as unknown as Person;
    person.mesh = new VoiceMesh({
      send: (type, signal) => this.send(person, type, signal),
      now: () => clock,
      onChange: (state) => {
        person.state = state;
      },
      environment: {
        secure: true,
        getUserMedia: async (constraints) => {
          person.constraints.push(constraints);
          const stream = new FakeStream();
          person.streams.push(stream);
          return stream as unknown as MediaStream;
        },
        createPeerConnection: () => {
          const connection = new FakePeerConnection(name);
          person.connections.push(connection);
          return connection as unknown as RTCPeerConnection;
        },
        playStream: () => {
          const player = { stopped: false, volume: 1, sinkId: '' };
          person.players.push(player);
          return {
            setVolume: (volume) => (player.volume = volume),
            setSinkId: async (sinkId) => {
              player.sinkId = sinkId;
            },
            stop: () => (player.stopped = true),
          };
        },
        ...environment,
      },
    });
    this.people.push(person);
    return person;
  }

  private send(from: Person, type: VoiceFrameType, signal?: VoiceSignal): boolean {
    if (!from.socketOpen) return false;
    this.log.push(`${from.name}:${MessageType[type]}${signal ? `>${signal.to}` : ''}`);
    const frame = (to: Person, data = '') =>
      queueMicrotask(() =>
        to.mesh.handleFrame(
          message(type, { userId: `${from.name}-id`, username: from.name }, { from: from.connId, to: signal?.to ?? '', data }),
        ),
      );
    if (type === MessageType.WEBRTC_JOIN || type === MessageType.WEBRTC_LEAVE) {
      from.inCall = type === MessageType.WEBRTC_JOIN;
      for (const other of this.people) if (other !== from && other.inCall && other.socketOpen) frame(other);
    } else {
      const target = this.people.find((person) => person.connId === signal?.to);
      if (target) frame(target, signal?.data);
    }
    return true;
  }
}

function message(type: MessageType, sender: { userId: string; username: string }, webrtc: { from: string; to: string; data: string }): Message {
  return decodeMessage(encodeMessage({ type, sender, payload: { case: 'webrtcData', value: webrtc } }));
}

/** Lets the microtasks of the signalling and the fake connections run out. */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i += 1) await new Promise((resolve) => setTimeout(resolve, 0));
}

/** Ann and Bob in one call, connected. */
async function pairInCall(): Promise<{ relay: Relay; ann: Person; bob: Person }> {
  const relay = new Relay();
  const ann = relay.add('ann');
  const bob = relay.add('bob');
  await ann.mesh.join();
  await bob.mesh.join();
  await settle();
  return { relay, ann, bob };
}

describe('voice mesh', () => {
  it('connects two people: the one already in the call offers, the joiner answers, candidates cross, each hears the other', async () => {
    const relay = new Relay();
    const ann = relay.add('ann');
    const bob = relay.add('bob');
    expect(await ann.mesh.join()).toBe(true);
    await settle();
    expect(ann.state).toMatchObject({ joined: true, peers: [] });
    await bob.mesh.join();
    await settle();

    // Own candidates wait for the offer or answer, so that they never reach a peer before it.
    expect(relay.log).toEqual([
      'ann:WEBRTC_JOIN',
      'bob:WEBRTC_JOIN',
      `ann:WEBRTC_OFFER>${bob.connId}`,
      `ann:WEBRTC_ICE_CANDIDATE>${bob.connId}`,
      `bob:WEBRTC_ANSWER>${ann.connId}`,
      `bob:WEBRTC_ICE_CANDIDATE>${ann.connId}`,
    ]);
    expect(ann.state.peers).toEqual([expect.objectContaining({ id: bob.connId, userId: 'bob-id', username: 'bob', state: 'connected' })]);
    expect(bob.state.peers).toEqual([expect.objectContaining({ id: ann.connId, userId: 'ann-id', username: 'ann', state: 'connected' })]);
    // Each side sent its microphone and plays the other's audio.
    expect(ann.connections[0].tracks).toEqual(ann.streams[0].tracks);
    expect(bob.connections[0].tracks).toEqual(bob.streams[0].tracks);
    expect(ann.players).toHaveLength(1);
    expect(bob.players).toHaveLength(1);
    // Ann's candidate reached Bob before his remote description was set, and was added after it.
    expect(bob.connections[0].added.map((c) => c.candidate)).toEqual([expect.stringContaining('ann')]);
    expect(ann.connections[0].added.map((c) => c.candidate)).toEqual([expect.stringContaining('bob')]);
  });

  it('leaving tells the others, closes every connection and releases the microphone', async () => {
    const { relay, ann, bob } = await pairInCall();
    bob.mesh.leave();
    await settle();
    expect(relay.log).toContain('bob:WEBRTC_LEAVE');
    expect(bob.state).toMatchObject({ joined: false, peers: [] });
    expect(bob.connections[0].closed).toBe(true);
    expect(bob.streams[0].tracks[0].stopped).toBe(true);
    expect(ann.state.peers).toEqual([]);
    expect(ann.connections[0].closed).toBe(true);
    expect(ann.players[0].stopped).toBe(true);
  });

  it('a dropped socket ends the connections; the call joins again when it reopens', async () => {
    const { relay, ann, bob } = await pairInCall();
    bob.socketOpen = false;
    bob.mesh.onSocketClose();
    expect(bob.state.peers).toEqual([]);
    expect(bob.state.joined).toBe(true);
    // The server tells the others that the connection left.
    ann.mesh.handleFrame(message(MessageType.WEBRTC_LEAVE, { userId: 'bob-id', username: 'bob' }, { from: bob.connId, to: '', data: '' }));
    bob.socketOpen = true;
    bob.mesh.onSocketOpen();
    await settle();
    expect(relay.log.filter((line) => line === 'bob:WEBRTC_JOIN')).toHaveLength(2);
    expect(ann.state.peers.map((peer) => peer.state)).toEqual(['connected']);
    expect(bob.state.peers.map((peer) => peer.state)).toEqual(['connected']);
  });

  it('says why the microphone could not be had, and does not join', async () => {
    const refused = new Relay().add('refused', {
      getUserMedia: () => Promise.reject(Object.assign(new Error('denied'), { name: 'NotAllowedError' })),
    });
    expect(await refused.mesh.join()).toBe(false);
    expect(refused.state).toMatchObject({ joined: false, joining: false, failure: 'denied' });

    const relay = new Relay();
    const insecure = relay.add('insecure', { secure: false });
    expect(await insecure.mesh.join()).toBe(false);
    expect(insecure.state.failure).toBe('insecure');
    expect(relay.log).toEqual([]);

    expect(voiceFailureOf({ name: 'NotFoundError' })).toBe('no-device');
    expect(voiceFailureOf({ name: 'NotReadableError' })).toBe('busy');
    expect(voiceFailureOf(new Error('other'))).toBe('failed');
  });

  it('connects to at most MAX_VOICE_PEERS others and says the call is fuller', async () => {
    const relay = new Relay();
    const people = Array.from({ length: MAX_VOICE_PEERS + 2 }, (_, index) => relay.add(`p${index}`));
    for (const person of people) {
      await person.mesh.join();
      await settle();
    }
    const first = people[0];
    expect(first.state.peers).toHaveLength(MAX_VOICE_PEERS);
    expect(first.state.full).toBe(true);
  });

  it('mutes the microphone and single people, and reads who speaks', async () => {
    const { ann, bob } = await pairInCall();
    ann.mesh.setMuted(true);
    expect(ann.streams[0].tracks[0].enabled).toBe(false);
    expect(ann.state.muted).toBe(true);
    ann.mesh.setMuted(false);
    expect(ann.streams[0].tracks[0].enabled).toBe(true);

    ann.mesh.setPeerAudio(bob.connId, { volume: 0.4 });
    expect(ann.players[0].volume).toBe(0.4);
    ann.mesh.setPeerAudio(bob.connId, { muted: true });
    expect(ann.players[0].volume).toBe(0);

    ann.connections[0].inboundLevel = 0.3;
    await ann.mesh.readLevels();
    expect(ann.state.peers[0].level).toBe(0.3);
    // Louder but still speaking: nothing the bar shows changed, so no new state (no re-render).
    const shown = ann.state;
    ann.connections[0].inboundLevel = 0.5;
    await ann.mesh.readLevels();
    expect(ann.state).toBe(shown);
    ann.connections[0].inboundLevel = 0;
    await ann.mesh.readLevels();
    expect(ann.state.peers[0].level).toBe(0);
  });

  it('switches the microphone in every connection without renegotiating, and the speaker for everyone', async () => {
    const { relay, ann } = await pairInCall();
    ann.mesh.setMuted(true);
    const offersBefore = relay.log.filter((line) => line.includes('OFFER')).length;
    expect(await ann.mesh.setMicrophone('mic-2')).toBe(true);
    expect(ann.constraints.at(-1)).toMatchObject({ audio: { deviceId: { exact: 'mic-2' }, echoCancellation: true, noiseSuppression: true } });
    const [first, second] = ann.streams;
    expect(first.tracks[0].stopped).toBe(true);
    expect(ann.connections[0].senders[0].track).toBe(second.tracks[0]);
    expect(second.tracks[0].enabled).toBe(false);
    expect(relay.log.filter((line) => line.includes('OFFER'))).toHaveLength(offersBefore);

    await ann.mesh.setSpeaker('speaker-2');
    expect(ann.players[0].sinkId).toBe('speaker-2');
    expect(ann.state.speakerId).toBe('speaker-2');
    // Who joins later plays through it too.
    const cara = relay.add('cara');
    await cara.mesh.join();
    await settle();
    expect(ann.players.map((player) => player.sinkId)).toEqual(['speaker-2', 'speaker-2']);
  });

  it('sends the camera through the video sender every connection has from its start, without a new offer', async () => {
    const relay = new Relay();
    const cameras: FakeCameraStream[] = [];
    const withCamera = (name: string) =>
      relay.add(name, {
        getUserMedia: async (constraints) => {
          if (constraints.video) {
            const camera = new FakeCameraStream();
            cameras.push(camera);
            return camera as unknown as MediaStream;
          }
          return new FakeStream() as unknown as MediaStream;
        },
      });
    const ann = withCamera('ann');
    const bob = withCamera('bob');
    await ann.mesh.join();
    await bob.mesh.join();
    await settle();
    // Ann offered a video section; Bob answers it ready to send his camera too.
    expect(ann.connections[0].transceivers.map((t) => t.direction)).toEqual(['sendrecv']);
    expect(bob.connections[0].transceivers.map((t) => t.direction)).toEqual(['sendrecv']);
    // A tile only while frames come.
    expect(bob.state.peers[0].video).toBeNull();
    bob.connections[0].framesDecoded = 30;
    await bob.mesh.readLevels();
    expect(bob.state.peers[0].video).not.toBeNull();

    const offers = relay.log.filter((line) => line.includes('OFFER')).length;
    expect(await ann.mesh.setCamera(true)).toBe(true);
    expect(ann.state.camera).toBe(cameras[0]);
    expect(ann.connections[0].transceivers[0].sender.track).toBe(cameras[0].tracks[0]);
    expect(await bob.mesh.setCamera(true)).toBe(true);
    expect(bob.connections[0].transceivers[0].sender.track).toBe(cameras[1].tracks[0]);
    expect(relay.log.filter((line) => line.includes('OFFER'))).toHaveLength(offers);

    // No frames from Ann for a while (her camera is off): no tile for her; and none once her track mutes.
    clock += VIDEO_STALE_MS;
    await bob.mesh.readLevels();
    expect(bob.state.peers[0].video).toBeNull();
    bob.connections[0].framesDecoded = 60;
    await bob.mesh.readLevels();
    expect(bob.state.peers[0].video).not.toBeNull();
    bob.connections[0].remoteVideo!.muted = true;
    bob.connections[0].remoteVideo!.onmute?.();
    expect(bob.state.peers[0].video).toBeNull();

    await ann.mesh.setCamera(false);
    expect(ann.state.camera).toBeNull();
    expect(cameras[0].tracks[0].stopped).toBe(true);
    expect(ann.connections[0].transceivers[0].sender.track).toBeNull();
    // Leaving the call turns the camera off too.
    bob.mesh.leave();
    expect(cameras[1].tracks[0].stopped).toBe(true);
  });

  it('keeps the microphone it has when another cannot be opened', async () => {
    const relay = new Relay();
    let fail = false;
    const ann = relay.add('ann', {
      getUserMedia: async () => {
        if (fail) throw Object.assign(new Error('busy'), { name: 'NotReadableError' });
        return new FakeStream() as unknown as MediaStream;
      },
    });
    await ann.mesh.join();
    fail = true;
    expect(await ann.mesh.setMicrophone('broken')).toBe(false);
    expect(ann.state.joined).toBe(true);
  });

  it('keeps a candidate that overtakes its offer (as the reference client may send it) and adds it after the offer', async () => {
    const relay = new Relay();
    const ann = relay.add('ann');
    await ann.mesh.join();
    const sender = { userId: 'ref', username: 'ref' };
    ann.mesh.handleFrame(message(MessageType.WEBRTC_ICE_CANDIDATE, sender, { from: 'ref:1', to: '', data: '{"candidate":"early","sdpMid":"0"}' }));
    ann.mesh.handleFrame(message(MessageType.WEBRTC_OFFER, sender, { from: 'ref:1', to: '', data: '{"type":"offer","sdp":"v=0"}' }));
    await settle();
    expect(ann.connections[0].added.map((c) => c.candidate)).toEqual(['early']);
    expect(relay.log).toContain('ann:WEBRTC_ANSWER>ref:1');
  });

  it('ignores signalling it cannot use: bad JSON, unknown senders, offers while not in the call', async () => {
    const relay = new Relay();
    const ann = relay.add('ann');
    const sender = { userId: 'x', username: 'x' };
    ann.mesh.handleFrame(message(MessageType.WEBRTC_OFFER, sender, { from: 'x:1', to: '', data: '{"type":"offer","sdp":"v=0"}' }));
    await settle();
    expect(ann.connections).toHaveLength(0);
    await ann.mesh.join();
    ann.mesh.handleFrame(message(MessageType.WEBRTC_OFFER, sender, { from: 'x:1', to: '', data: 'not json' }));
    ann.mesh.handleFrame(message(MessageType.WEBRTC_ANSWER, sender, { from: 'y:1', to: '', data: '{}' }));
    ann.mesh.handleFrame(message(MessageType.WEBRTC_ICE_CANDIDATE, sender, { from: 'y:1', to: '', data: '[' }));
    await settle();
    expect(ann.connections).toHaveLength(0);
    expect(ann.state.peers).toEqual([]);
  });
});
