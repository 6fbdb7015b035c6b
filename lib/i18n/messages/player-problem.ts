import { registerMessages } from '../messages';

/**
 * Texts of a source that cannot play: why, in words a viewer can act on, and what helps. Loaded with
 * components/player/problem-notice.tsx, which the player downloads only when a source has a problem.
 */
export const playerProblem = {
  zh: {
    'playerProblem.problem.unreachable': '无法连接到视频地址：服务器没有响应，或地址有误。',
    'playerProblem.problem.httpStatus': '视频地址返回了错误（HTTP {status}）：链接可能已失效或需要登录。',
    'playerProblem.problem.cors': '视频服务器不允许本站读取（CORS）：开启代理后可以播放。',
    'playerProblem.problem.mixedContent': '本页面是 HTTPS，视频地址是 HTTP，浏览器拒绝加载：开启代理或换用 HTTPS 地址。',
    'playerProblem.problem.notMedia': '这个地址返回的不是视频（内容类型 {type}）：请检查链接。',
    'playerProblem.problem.codec': '此浏览器不支持该视频的编码格式。',
    'playerProblem.problem.broadcastCodec': '这场直播使用的编码（{codec}）浏览器无法播放。主播需要在 OBS 的 设置 → 输出 中把视频编码器设为 x264（H.264）、音频设为 AAC，然后重新开始直播。',
    'playerProblem.problem.unplayable': '视频地址有响应，但浏览器无法播放返回的内容：它可能不是视频，或格式不受支持。',
    'playerProblem.problem.unsupportedFormat': '此浏览器无法播放 {format} 视频',
    'playerProblem.problem.unknown': '视频加载失败（{detail}）',
    'playerProblem.problem.noRange': '该视频主机无法跳转（它忽略 HTTP Range 请求）：谁都不能拖动进度，也不能中途加入。开启代理即可解决。',
    'playerProblem.remedy.enableProxy': '开启代理',
    'playerProblem.remedy.convert': '由服务器转码播放',
    'playerProblem.remedy.noEdit': '你没有编辑影片的权限，请联系房间管理员。',
  },
  en: {
    'playerProblem.problem.unreachable': 'The video address cannot be reached: the server does not answer, or the address is wrong.',
    'playerProblem.problem.httpStatus': 'The video address answered with an error (HTTP {status}): the link may have expired or need a sign-in.',
    'playerProblem.problem.cors': 'The video server does not let this site read it (CORS): turn on the proxy to play it.',
    'playerProblem.problem.mixedContent': 'This page is HTTPS and the video is HTTP, which the browser refuses: turn on the proxy or use an HTTPS address.',
    'playerProblem.problem.notMedia': 'This address is not a video (content type {type}): check the link.',
    'playerProblem.problem.codec': 'This browser does not support the video\u2019s codec.',
    'playerProblem.problem.broadcastCodec': 'This broadcast uses {codec}, which browsers cannot play. The broadcaster should set OBS (Settings → Output) to the x264 (H.264) video encoder and AAC audio, then start streaming again.',
    'playerProblem.problem.unplayable': 'The address answers, but the browser cannot play what it returns: it may not be a video, or its format is not supported here.',
    'playerProblem.problem.unsupportedFormat': 'This browser cannot play {format} video',
    'playerProblem.problem.unknown': 'The video failed to load ({detail})',
    'playerProblem.problem.noRange': 'This host cannot seek (it ignores HTTP Range requests): nobody can skip around in this video or join it midway. Turning on the proxy fixes that.',
    'playerProblem.remedy.enableProxy': 'Turn on the proxy',
    'playerProblem.remedy.convert': 'Play through the server (convert)',
    'playerProblem.remedy.noEdit': 'You may not edit movies; ask a room admin.',
  },
} as const;

registerMessages(playerProblem);
