import { registerMessages } from '../messages';

/**
 * Texts of the stream info dialog of a live movie pushed over RTMP
 * (components/playlist/stream-info-dialog.tsx), which the hall downloads when it first opens.
 */
export const live = {
  zh: {
    'live.title': '推流信息：{name}',
    'live.description': '用 OBS 或 ffmpeg 向这个房间直播。推流密钥请勿外传：拿到它的人可以用你的名义直播。',
    'live.loading': '正在获取推流信息…',
    'live.server': '服务器',
    'live.key': '推流密钥',
    'live.copy': '复制',
    'live.copied': '已复制',
    'live.copyFailed': '无法复制，请选中后手动复制',
    'live.show': '显示',
    'live.hide': '隐藏',
    'live.waiting': '正在等待你的推流…',
    'live.receiving': '服务器已收到你的推流，房间里的人都能看到。',
    'live.receivingNotPlaying': '服务器已收到你的推流，但房间正在播放别的影片，大家还看不到。',
    'live.playForRoom': '为房间播放',
    'live.askToPlay': '你没有切换影片的权限：请房主或有“设置当前影片”权限的管理员在影片列表里播放这场直播。',
    'live.statusUnknown': '暂时无法确认推流状态',
    'live.notArriving': 'OBS 提示“连接失败”？请检查服务器和推流密钥是否完整复制（密钥只对这场直播有效），并确认你的电脑能连到 {host}（中间的防火墙或反向代理要放行 RTMP）。',
    'live.obs': 'OBS：设置 → 直播 → 服务选“自定义…”，填入服务器和推流密钥，然后点“开始直播”。视频用 H.264，音频用 AAC。',
    'live.ffmpeg': '或者用 ffmpeg：',
    'live.keyPlaceholder': '<推流密钥>',
    'live.close': '关闭',
    'live.retry': '重试',
  },
  en: {
    'live.title': 'Stream info: {name}',
    'live.description': 'Broadcast into this room from OBS or ffmpeg. Keep the stream key to yourself: whoever has it can broadcast as you.',
    'live.loading': 'Getting the stream info…',
    'live.server': 'Server',
    'live.key': 'Stream key',
    'live.copy': 'Copy',
    'live.copied': 'Copied',
    'live.copyFailed': 'Could not copy. Select it and copy it by hand.',
    'live.show': 'Show',
    'live.hide': 'Hide',
    'live.waiting': 'Waiting for your stream…',
    'live.receiving': 'The server receives your stream: everyone in the room sees it.',
    'live.receivingNotPlaying': 'The server receives your stream, but the room is playing another movie, so nobody sees it yet.',
    'live.playForRoom': 'Play it for the room',
    'live.askToPlay': 'You may not change the movie: ask the room’s creator, or an admin who may set the current movie, to play this broadcast from the movie list.',
    'live.statusUnknown': 'Cannot tell whether the stream arrives right now',
    'live.notArriving': 'OBS says “Failed to connect”? Check that the server and the stream key were copied whole (the key works for this broadcast only), and that your computer can reach {host} (a firewall or reverse proxy in between must let RTMP through).',
    'live.obs': 'OBS: Settings → Stream → Service “Custom…”, paste the server and the stream key, then Start Streaming. Use H.264 video and AAC audio.',
    'live.ffmpeg': 'Or with ffmpeg:',
    'live.keyPlaceholder': '<stream key>',
    'live.close': 'Close',
    'live.retry': 'Try again',
  },
} as const;

registerMessages(live);
