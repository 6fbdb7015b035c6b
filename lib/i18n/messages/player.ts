import { registerMessages } from '../messages';

/**
 * Texts of the player: its menus (media-chrome's own labels come from its zh-CN/en catalogues), the
 * source selector, subtitles, danmaku and the explanations of a source that cannot play. Loaded with
 * the player.
 */
export const player = {
  zh: {
    'player.menu.speed': '倍速',
    'player.broadcastWaiting': '等待主播开始推流…',
    'player.broadcastEnded': '直播已结束，主播重新推流后会自动继续。',
    'player.menu.quality': '画质',
    'player.menu.audio': '音轨',
    'player.menu.subtitles': '字幕',

    'player.source.label': '源',
    'player.source.main': '默认',

    'player.subtitles.failed': '字幕“{name}”加载失败（{detail}）',

    'player.danmaku.toggle': '弹幕',
    'player.danmaku.on': '弹幕：开',
    'player.danmaku.off': '弹幕：关',
    'player.danmaku.settings': '弹幕设置',
    'player.danmaku.opacity': '不透明度',
    'player.danmaku.density': '密度',
    'player.danmaku.density.low': '少',
    'player.danmaku.density.normal': '适中',
    'player.danmaku.density.high': '全部',
    'player.danmaku.reducedMotion': '系统设置了“减少动态效果”，弹幕默认关闭。',
    'player.view.aspect': '画面比例',
    'player.view.aspectAuto': '默认',
    'player.view.flip': '画面翻转',
    'player.view.flipNone': '正常',
    'player.view.flipHorizontal': '水平翻转',
    'player.view.flipVertical': '垂直翻转',
    'player.view.subtitleOffset': '字幕偏移',
    'player.view.seconds': '秒',
    'player.view.theaterOn': '影院模式',
    'player.view.theaterOff': '退出影院模式',
    'player.view.webFullscreenOn': '网页全屏',
    'player.view.webFullscreenOff': '退出网页全屏',
    'player.view.lock': '锁定屏幕',
    'player.view.unlock': '解锁',
    'player.view.fastForward': '{rate} 倍速快进中',
    'player.danmaku.send': '发送弹幕',
    'player.danmaku.placeholder': '发个弹幕…',
  },
  en: {
    'player.menu.speed': 'Speed',
    'player.broadcastWaiting': 'Waiting for the broadcaster to start…',
    'player.broadcastEnded': 'The broadcast ended. It comes back here if the broadcaster streams again.',
    'player.menu.quality': 'Quality',
    'player.menu.audio': 'Audio',
    'player.menu.subtitles': 'Subtitles',

    'player.source.label': 'Source',
    'player.source.main': 'Default',

    'player.subtitles.failed': 'The subtitle "{name}" failed to load ({detail})',

    'player.danmaku.toggle': 'Danmaku',
    'player.danmaku.on': 'Danmaku: on',
    'player.danmaku.off': 'Danmaku: off',
    'player.danmaku.settings': 'Danmaku settings',
    'player.danmaku.opacity': 'Opacity',
    'player.danmaku.density': 'Density',
    'player.danmaku.density.low': 'Few',
    'player.danmaku.density.normal': 'Some',
    'player.danmaku.density.high': 'All',
    'player.danmaku.reducedMotion': 'Your system asks for reduced motion, so danmaku starts off.',
    'player.view.aspect': 'Aspect ratio',
    'player.view.aspectAuto': 'Original',
    'player.view.flip': 'Flip',
    'player.view.flipNone': 'Normal',
    'player.view.flipHorizontal': 'Horizontal',
    'player.view.flipVertical': 'Vertical',
    'player.view.subtitleOffset': 'Subtitle offset',
    'player.view.seconds': 's',
    'player.view.theaterOn': 'Theater mode',
    'player.view.theaterOff': 'Exit theater mode',
    'player.view.webFullscreenOn': 'Fill the window',
    'player.view.webFullscreenOff': 'Exit window fill',
    'player.view.lock': 'Lock the controls',
    'player.view.unlock': 'Unlock the controls',
    'player.view.fastForward': 'Fast forward {rate}×',
    'player.danmaku.send': 'Send a danmaku',
    'player.danmaku.placeholder': 'Say something…',
  },
} as const;

registerMessages(player);
